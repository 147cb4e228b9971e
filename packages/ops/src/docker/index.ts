export { DockerClient } from './client.ts';
export {
  type ContainerInfo,
  LABEL_PROJECT,
  type MountInfo,
  type PortBinding,
} from './container-info.ts';
export { type DockerEndpoint, type DockerEnv, dockerEndpoint } from './endpoint.ts';
export type { ChunkSink, LogOptions, LogSinks } from './logs.ts';
