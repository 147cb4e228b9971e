import type { AdminLogin, ConfigOf, webSpec } from '@radio/core';

export interface WebServerOptions {
  /** API_URL: where `/api` is forwarded to. */
  apiUrl: string;
  /** WEB_PORT; 0 picks a free port. Default 8080. */
  port?: number;
  /** WEB_HOST. Default 0.0.0.0. */
  host?: string;
  /** The built app. Default services/web/dist. */
  distDir?: string;
  /** Who may read /metrics (ADMIN_USER/ADMIN_PASSWORD); unset: /metrics answers 404. */
  metricsLogin?: AdminLogin | undefined;
  /**
   * TRUSTED_PROXIES: the reverse proxies in front (addresses, CIDRs, host names) whose
   * X-Forwarded-For, -Proto, -Host and -Port are believed and passed on to the api. Default none.
   */
  trustedProxies?: readonly string[];
  /** PUBLIC_URL: the address people open (`https://radio.example`), said at start. */
  publicUrl?: string | undefined;
}

/** The options from the environment configuration (main.ts and the embedded launcher). */
export function webOptionsFromConfig(
  config: Pick<
    ConfigOf<typeof webSpec>,
    | 'WEB_HOST'
    | 'WEB_PORT'
    | 'API_URL'
    | 'ADMIN_USER'
    | 'ADMIN_PASSWORD'
    | 'TRUSTED_PROXIES'
    | 'PUBLIC_URL'
  >,
): WebServerOptions {
  const { ADMIN_USER: user, ADMIN_PASSWORD: password } = config;
  return {
    host: config.WEB_HOST,
    port: config.WEB_PORT,
    apiUrl: config.API_URL,
    metricsLogin: password ? { user, password } : undefined,
    trustedProxies: config.TRUSTED_PROXIES,
    publicUrl: config.PUBLIC_URL,
  };
}
