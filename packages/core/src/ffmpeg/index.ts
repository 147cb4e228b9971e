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
  type SpawnFfmpegOptions,
  spawnFfmpeg,
} from './spawn.ts';
