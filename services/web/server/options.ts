import type { ConfigOf, webSpec } from '@radio/core';

export interface WebServerOptions {
  /** API_URL: where `/api` is forwarded to. */
  apiUrl: string;
  /** WEB_PORT; 0 picks a free port. Default 8080. */
  port?: number;
  /** WEB_HOST. Default 0.0.0.0. */
  host?: string;
  /** The built app. Default services/web/dist. */
  distDir?: string;
}

/** The options from the environment configuration (main.ts and the embedded launcher). */
export function webOptionsFromConfig(
  config: Pick<ConfigOf<typeof webSpec>, 'WEB_HOST' | 'WEB_PORT' | 'API_URL'>,
): WebServerOptions {
  return { host: config.WEB_HOST, port: config.WEB_PORT, apiUrl: config.API_URL };
}
