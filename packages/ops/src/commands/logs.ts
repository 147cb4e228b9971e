import type { LogsCommand } from '../args.ts';
import type { CommandContext } from '../context.ts';
import { Stack } from '../stack.ts';

/**
 * `radioctl logs <service>`: every container of the service (prefixed by its name when there
 * are several), stdout and stderr kept apart. With --follow it runs until Ctrl-C or until the
 * containers stop.
 */
export async function logs(ctx: CommandContext, command: LogsCommand): Promise<number> {
  const stack = await Stack.load(ctx.docker, ctx.project);
  const containers = stack.containersOf(command.service);
  const prefix = containers.length > 1;
  await Promise.all(
    containers.map(async (container) => {
      const meta = {
        service: container.service,
        container: container.name,
        prefix,
        timestamps: command.timestamps,
      };
      const stdout = ctx.printer.logSink('stdout', meta);
      const stderr = ctx.printer.logSink('stderr', meta);
      try {
        await ctx.docker.logs(
          container,
          {
            follow: command.follow,
            tail: command.tail,
            since: command.since,
            timestamps: command.timestamps,
          },
          { stdout, stderr },
          ctx.signal,
        );
      } finally {
        stdout.flush();
        stderr.flush();
      }
    }),
  );
  return 0;
}
