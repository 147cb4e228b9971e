export { ADTS_HEADER_SIZE, parseAdtsHeader } from './adts.ts';
export type { FrameHeader } from './frame-header.ts';
export { FrameSplitter } from './frame-splitter.ts';
export { mp3BitrateIndex, parseMp3Header } from './mp3.ts';
