export { audioContentHash } from './content-hash.ts';
export {
  type AudioFileInfo,
  type AudioProbe,
  type AudioRefusal,
  type AudioRefusalCode,
  type MediaToolOptions,
  probeAudioFile,
} from './probe-audio.ts';
