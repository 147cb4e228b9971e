export { LIBRARY_ID } from './derived.ts';
export { commit, initialState, LATE_INTERRUPT_MS, plan } from './planner.ts';
export type * from './planner-api.ts';
export type * from './types.ts';
