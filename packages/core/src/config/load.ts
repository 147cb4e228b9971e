import { z } from 'zod';
import { ConfigError } from '../errors.ts';
import type { Variable } from './variables.ts';

export type Spec = Record<string, Variable>;
export type ConfigOf<S extends Spec> = { readonly [K in keyof S]: z.output<S[K]['schema']> };

type Env = Record<string, string | undefined>;

/**
 * How the placeholders of `.env.example` begin (`ADMIN_PASSWORD=CHANGE_ME_admin_password`). A
 * copied `.env` whose secrets were not changed must not start a station anyone can log in to.
 */
export const PLACEHOLDER_PREFIX = 'CHANGE_ME';

/** What is wrong when `raw` still holds a placeholder: the value itself, or a URL's password. */
function placeholderProblem(name: string, raw: string): string | null {
  if (raw.trim().startsWith(PLACEHOLDER_PREFIX)) {
    return `${name} is still the placeholder ${PLACEHOLDER_PREFIX}… of .env.example: set a real value`;
  }
  // docker-compose.yml builds DATABASE_URL from POSTGRES_PASSWORD.
  if (!URL.canParse(raw)) return null;
  let password: string;
  try {
    password = decodeURIComponent(new URL(raw).password);
  } catch {
    return null;
  }
  if (!password.startsWith(PLACEHOLDER_PREFIX)) return null;
  return `${name} has the placeholder password ${PLACEHOLDER_PREFIX}… of .env.example (POSTGRES_PASSWORD under Docker Compose): set a real one`;
}

/**
 * Variables of earlier versions that now mean something else: set (to anything that turns them
 * on), the service stops and says what replaces them, rather than silently ignoring an
 * operator's setting.
 */
const RETIRED: Record<string, string> = {
  TRUST_PROXY:
    'TRUST_PROXY is replaced by TRUSTED_PROXIES: list the addresses, CIDRs or host names of your reverse proxies (e.g. TRUSTED_PROXIES=127.0.0.1 or TRUSTED_PROXIES=caddy) and remove TRUST_PROXY',
};

function retiredProblems(env: Env): Map<string, string> {
  const problems = new Map<string, string>();
  for (const [name, message] of Object.entries(RETIRED)) {
    const raw = env[name]?.trim().toLowerCase();
    if (raw && raw !== 'false' && raw !== '0') problems.set(name, message);
  }
  return problems;
}

/**
 * Validates the variables of `spec` from `env` and returns them typed, under their environment
 * names. An empty string counts as unset, as in compose files where `FOO=` is common; a value
 * that is still a CHANGE_ME placeholder of `.env.example` is refused.
 * Throws a ConfigError whose message is one line naming every bad variable.
 */
export function loadConfig<S extends Spec>(spec: S, env: Env = process.env): ConfigOf<S> {
  const shape = Object.fromEntries(Object.entries(spec).map(([name, v]) => [name, v.schema]));
  const input = Object.fromEntries(
    Object.keys(spec).map((name) => [name, env[name] === '' ? undefined : env[name]]),
  );
  const placeholders = retiredProblems(env);
  for (const [name, raw] of Object.entries(input)) {
    const problem = raw === undefined ? null : placeholderProblem(name, raw);
    if (problem) placeholders.set(name, problem);
  }
  const result = z.object(shape).safeParse(input);
  if (result.success && placeholders.size === 0) return result.data as ConfigOf<S>;

  const invalid = result.success ? [] : result.error.issues.map((issue) => String(issue.path[0]));
  const bad = [...new Set([...placeholders.keys(), ...invalid])];
  const problems = bad.map((name) => {
    const placeholder = placeholders.get(name);
    if (placeholder) return placeholder;
    const v = spec[name] as Variable;
    const raw = input[name];
    if (raw === undefined) return `${name} is required: ${v.expects}`;
    const shown = v.secret ? '(hidden)' : JSON.stringify(raw);
    return `${name} must be ${v.expects}, got ${shown}`;
  });
  throw new ConfigError(bad[0] ?? 'unknown', `Invalid configuration: ${problems.join('; ')}`);
}

/** The running configuration with secrets masked, for status pages and start-up logs. */
export function describeConfig<S extends Spec>(
  spec: S,
  config: ConfigOf<S>,
): Record<string, string | number | boolean | null> {
  return Object.fromEntries(
    Object.entries(spec).map(([name, v]) => {
      const value = config[name] as unknown;
      if (value === undefined || value === null) return [name, null];
      if (v.secret) return [name, '********'];
      return [
        name,
        typeof value === 'object' ? String(value) : (value as string | number | boolean),
      ];
    }),
  );
}

/**
 * For a service's main(): load the config or stop the process with the one-line reason on
 * stderr (exit code 78, EX_CONFIG), which is what an operator sees in `docker logs`.
 */
export function loadConfigOrExit<S extends Spec>(spec: S, env: Env = process.env): ConfigOf<S> {
  try {
    return loadConfig(spec, env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(78);
  }
}
