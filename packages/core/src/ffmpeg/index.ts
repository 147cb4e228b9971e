export {
  type FfmpegLocation,
  FfmpegNotFoundError,
  type FfmpegSource,
  ffmpegVersion,
  locateFfmpeg,
  locateFfprobe,
} from './locate.ts';
export {
  FfmpegExitError,
  type FfmpegProcess,
  runFfmpeg,
  spawnFfmpeg,
  type SpawnFfmpegOptions,
} from './spawn.ts';
