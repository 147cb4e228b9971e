export {
  BUILD_COMMAND,
  buildWebApp,
  DEFAULT_DIST_DIR,
  ensureWebBuild,
  isWebBuilt,
  WEB_ROOT,
} from './build.ts';
export { type WebServerOptions, webOptionsFromConfig } from './options.ts';
export {
  createWebServer,
  WebNotBuiltError,
  type WebServer,
  type WebServerDeps,
} from './web-server.ts';
