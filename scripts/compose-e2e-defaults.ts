// The compose end-to-end test's careful-defaults stage (scripts/compose-e2e.ts): what a copied
// .env.example gives a station on the internet. Redis answers nobody without REDIS_PASSWORD;
// the scheduler and the api log in to PostgreSQL as POSTGRES_APP_USER, which is no superuser
// (the tables their migrations made on the first start are its own, so they ran as it); an
// admin or source password under 12 characters stops a service with exit 78 and a line
// naming it.

export interface DefaultsRun {
  code: number | null;
  stdout: string;
  output: string;
}

export interface DefaultsTools {
  /** docker-compose with the stack's project; `envFile` replaces its .env. */
  compose(
    args: string[],
    options?: { allowFail?: boolean; envFile?: string },
  ): Promise<DefaultsRun>;
  note(text: string): void;
  check(condition: unknown, message: string): void;
}

export interface DefaultsEnv {
  POSTGRES_USER: string;
  POSTGRES_DB: string;
  POSTGRES_APP_USER: string;
}

/** Redis without the password: NOAUTH; with it (REDISCLI_AUTH of the container): PONG. */
async function checkRedis(tools: DefaultsTools): Promise<void> {
  const anonymous = await tools.compose(
    ['exec', '-T', 'redis', 'env', '-u', 'REDISCLI_AUTH', 'redis-cli', 'ping'],
    { allowFail: true },
  );
  tools.check(
    /NOAUTH/.test(anonymous.output),
    `redis-cli ping without the password: ${anonymous.output.trim()}`,
  );
  const authed = await tools.compose(['exec', '-T', 'redis', 'redis-cli', 'ping']);
  tools.check(authed.stdout.trim() === 'PONG', `redis-cli ping with it: ${authed.output.trim()}`);
  tools.note('redis: NOAUTH without REDIS_PASSWORD, PONG with it');
}

/** One query as the superuser, over the postgres container's socket. */
async function psql(tools: DefaultsTools, env: DefaultsEnv, query: string): Promise<string> {
  const result = await tools.compose([
    'exec',
    '-T',
    'postgres',
    'psql',
    '-U',
    env.POSTGRES_USER,
    '-d',
    env.POSTGRES_DB,
    '-Atc',
    query,
  ]);
  return result.stdout.trim();
}

async function checkDatabaseRole(tools: DefaultsTools, env: DefaultsEnv): Promise<void> {
  const app = env.POSTGRES_APP_USER.replace(/'/g, "''");
  const role = await psql(
    tools,
    env,
    `select rolsuper, rolcreaterole, rolcreatedb from pg_roles where rolname = '${app}'`,
  );
  tools.check(
    role === 'f|f|f',
    `${env.POSTGRES_APP_USER}: superuser|createrole|createdb = ${role}`,
  );
  const owners = await psql(
    tools,
    env,
    "select tableowner, count(*) from pg_tables where schemaname = 'public' group by 1",
  );
  tools.check(
    owners.split('\n').length === 1 && owners.startsWith(`${env.POSTGRES_APP_USER}|`),
    `owners of the station's tables: ${owners.replace(/\n/g, ', ')}`,
  );
  tools.note(
    `postgres: ${env.POSTGRES_APP_USER} (no superuser, no createrole, no createdb) owns the ${owners.split('|')[1]} tables the services' migrations made`,
  );
}

/** The stream server with an 11-character ADMIN_PASSWORD, then SOURCE_PASSWORD: exit 78 each. */
async function checkShortPasswords(tools: DefaultsTools, shortEnvFiles: Record<string, string>) {
  for (const [variable, envFile] of Object.entries(shortEnvFiles)) {
    const refused = await tools.compose(['run', '--rm', '--no-deps', '-T', 'stream'], {
      allowFail: true,
      envFile,
    });
    const line = refused.output.split('\n').find((l) => l.includes(variable)) ?? '';
    tools.check(
      refused.code === 78 && /12 or more characters/.test(line),
      `stream with an 11-character ${variable}: exit ${refused.code}\n${refused.output.slice(-400)}`,
    );
    tools.note(`${variable} of 11 characters: exit 78: ${line.trim().slice(0, 120)}`);
  }
}

export async function checkCarefulDefaults(
  tools: DefaultsTools,
  env: DefaultsEnv,
  shortEnvFiles: Record<string, string>,
): Promise<void> {
  await checkRedis(tools);
  await checkDatabaseRole(tools, env);
  await checkShortPasswords(tools, shortEnvFiles);
}
