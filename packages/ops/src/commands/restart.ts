import type { RestartCommand } from '../args.ts';
import { type CommandContext, sleep } from '../context.ts';
import type { ContainerInfo } from '../docker/index.ts';
import { OpsError } from '../errors.ts';
import { containerRecord } from '../print.ts';
import { Stack } from '../stack.ts';

/** How long Docker waits after SIGTERM before SIGKILL, as `docker compose restart` does. */
const STOP_TIMEOUT_SECONDS = 10;
const POLL_MS = 500;

function ready(container: ContainerInfo): boolean {
  return (
    container.state === 'running' && (container.health === null || container.health === 'healthy')
  );
}

/**
 * Polls until the container runs and, if it has a health check, is healthy. A container that
 * exits fails at once (with its last lines); one that stays unhealthy fails at the deadline.
 */
export async function waitUntilReady(
  ctx: CommandContext,
  container: ContainerInfo,
  timeoutSeconds: number,
): Promise<ContainerInfo> {
  const deadline = ctx.now() + timeoutSeconds * 1000;
  for (;;) {
    const current = await ctx.docker.inspect(container.id);
    if (ready(current)) return current;
    if (current.state === 'exited' || current.state === 'dead') {
      const lines = await ctx.docker.lastLines(current, 15);
      throw new OpsError(
        'OPS_NOT_HEALTHY',
        `${current.name} ${current.state} (exit code ${current.exitCode ?? '?'}) after the restart${
          lines.length > 0 ? `; its last lines:\n  ${lines.join('\n  ')}` : ''
        }`,
      );
    }
    if (ctx.now() >= deadline || ctx.signal.aborted) {
      const probe = current.lastHealthOutput
        ? `; last health check said: ${current.lastHealthOutput}`
        : '';
      throw new OpsError(
        'OPS_NOT_HEALTHY',
        `${current.name} is ${current.health ?? current.state} ${ctx.signal.aborted ? 'when interrupted' : `after ${timeoutSeconds}s`}${probe} (see radioctl logs ${current.service})`,
      );
    }
    await sleep(POLL_MS, ctx.signal);
  }
}

/**
 * `radioctl restart [service...]`: in dependency order (so a service comes back after what it
 * needs), one container at a time, each running and healthy before the next one restarts.
 */
export async function restart(ctx: CommandContext, command: RestartCommand): Promise<number> {
  const stack = await Stack.load(ctx.docker, ctx.project);
  const services =
    command.services.length === 0 ? stack.services() : stack.ordered(command.services);
  const work = services.flatMap((service) => stack.containersOf(service));
  const results: Record<string, unknown>[] = [];
  const started = ctx.now();
  for (const [index, container] of work.entries()) {
    const step = `[${index + 1}/${work.length}]`;
    ctx.printer.progress(`${step} restarting ${container.service} (${container.name})`);
    const t0 = ctx.now();
    await ctx.docker.restart(container, STOP_TIMEOUT_SECONDS);
    const after = command.wait
      ? await waitUntilReady(ctx, container, command.timeoutSeconds)
      : await ctx.docker.inspect(container.id);
    const seconds = (ctx.now() - t0) / 1000;
    const outcome = command.wait
      ? after.health === 'healthy'
        ? 'healthy'
        : 'running (no health check)'
      : `restarted (${after.health ?? after.state}, not waiting)`;
    ctx.printer.progress(
      `${' '.repeat(step.length)} ${container.service} ${outcome} in ${seconds.toFixed(1)}s`,
    );
    results.push({ ...containerRecord(after, ctx.now()), seconds: Number(seconds.toFixed(2)) });
  }
  const total = ((ctx.now() - started) / 1000).toFixed(1);
  if (ctx.printer.json) {
    ctx.printer.jsonValue({
      project: stack.project.name,
      restarted: results,
      seconds: Number(total),
    });
  } else {
    ctx.printer.line(
      `restarted ${work.length} container${work.length === 1 ? '' : 's'} of ${stack.project.name} in ${total}s`,
    );
  }
  return 0;
}
