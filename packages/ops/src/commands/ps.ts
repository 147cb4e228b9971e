import type { CommandContext } from '../context.ts';
import { containerRecord } from '../print.ts';
import { Stack } from '../stack.ts';

/** `radioctl ps`: the stack's containers, in start order. */
export async function ps(ctx: CommandContext): Promise<number> {
  const stack = await Stack.load(ctx.docker, ctx.project);
  const now = ctx.now();
  if (ctx.printer.json) {
    ctx.printer.jsonValue({
      project: stack.project.name,
      containers: stack.containers.map((container) => containerRecord(container, now)),
    });
  } else {
    ctx.printer.containers(stack.containers, now);
  }
  return 0;
}
