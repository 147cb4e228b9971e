export { type ConfigOf, describeConfig, loadConfig, loadConfigOrExit, type Spec } from './load.ts';
export { apiSpec, embeddedSpec, schedulerSpec, streamSpec, webSpec } from './schemas.ts';
export { optional, type Variable, variables } from './variables.ts';
