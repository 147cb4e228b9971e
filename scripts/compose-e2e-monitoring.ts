// The compose end-to-end test's `monitoring` stage (scripts/compose-e2e.ts): Prometheus from the
// profile scrapes every service with the admin credentials, each service's /metrics passes
// `promtool check metrics`, and the generated configuration and the alert rules pass promtool.
import { waitFor } from '@radio/core/testing';

export interface MonitoringRun {
  code: number | null;
  stdout: string;
  output: string;
}

export interface MonitoringTools {
  /** Runs docker-compose with the stack's project and .env (`input` goes to its stdin). */
  compose(
    args: string[],
    options?: { timeoutMs?: number; input?: string; show?: (line: string) => string | null },
  ): Promise<MonitoringRun>;
  note(text: string): void;
  check(condition: unknown, message: string): void;
}

/** The scraped services: where each serves /metrics inside its own container. */
export const SCRAPED = [
  { job: 'stream', port: 8000 },
  { job: 'scheduler', port: 8005 },
  { job: 'api', port: 3000 },
  { job: 'web', port: 8080 },
] as const;

interface Target {
  labels: { job: string };
  health: string;
  lastError: string;
  scrapeUrl: string;
}

/** Each container fetches its own /metrics with the admin credentials it was given. */
const FETCH_METRICS = `
const auth = Buffer.from(process.env.ADMIN_USER + ':' + process.env.ADMIN_PASSWORD).toString('base64');
const res = await fetch('http://127.0.0.1:' + process.argv[1] + '/metrics', { headers: { authorization: 'Basic ' + auth } });
if (res.status !== 200) { console.error('HTTP ' + res.status); process.exit(1); }
process.stdout.write(await res.text());
`;

/** promtool's few lines of report as one (`Checking …  SUCCESS: …; …`). */
function oneLine(output: string): string {
  return output
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .join('; ');
}

/**
 * Starts the profile and waits until Prometheus has every service's target up, and one `edge`
 * target up for each of the `edges` edge relays running.
 */
export async function checkMonitoring(
  tools: MonitoringTools,
  prometheusUrl: string,
  edges: number,
): Promise<void> {
  const { compose, note, check } = tools;
  await compose(['--profile', 'monitoring', 'up', '-d', 'prometheus'], {
    timeoutMs: 5 * 60_000,
    show: (line) => (/^(Creating |Starting |^ERROR)/.test(line) ? line : null),
  });
  let last = '';
  const targets = await waitFor(
    'every Prometheus target up',
    async () => {
      const res = await fetch(`${prometheusUrl}/api/v1/targets?state=active`).catch(() => null);
      if (!res?.ok) return false;
      const body = (await res.json()) as { data: { activeTargets: Target[] } };
      const scraped = body.data.activeTargets.filter((t) => t.labels.job !== 'prometheus');
      const line = scraped.map((t) => `${t.labels.job} ${t.health}`).join(', ');
      if (line !== last) note(line || '(no targets yet)');
      last = line;
      const up = SCRAPED.every(({ job }) =>
        scraped.some((t) => t.labels.job === job && t.health === 'up'),
      );
      const edgesUp = scraped.filter((t) => t.labels.job === 'edge' && t.health === 'up');
      return up && edgesUp.length === edges && scraped;
    },
    120_000,
    2000,
  );
  note(`targets up: ${targets.map((t) => t.scrapeUrl).join(', ')}`);

  for (const { job, port } of SCRAPED) {
    const fetched = await compose([
      'exec',
      '-T',
      job,
      'node',
      '--input-type=module',
      '-e',
      FETCH_METRICS,
      String(port),
    ]);
    const text = fetched.stdout;
    check(text.includes(`service="${job}"`), `${job}'s /metrics has no service="${job}" series`);
    const linted = await compose(['exec', '-T', 'prometheus', 'promtool', 'check', 'metrics'], {
      input: text,
    });
    check(linted.output.trim() === '', `promtool check metrics on ${job}: ${linted.output}`);
    note(`${job}: /metrics ${text.split('\n').length} lines, promtool check metrics: ok`);
  }
  const config = await compose([
    'exec',
    '-T',
    'prometheus',
    'promtool',
    'check',
    'config',
    '/tmp/prometheus.yml',
  ]);
  note(`promtool check config: ${oneLine(config.output)}`);
  const rules = await compose([
    'exec',
    '-T',
    'prometheus',
    'promtool',
    'check',
    'rules',
    '/etc/prometheus/radio/alerts.yml',
  ]);
  note(`promtool check rules: ${oneLine(rules.output)}`);
}
