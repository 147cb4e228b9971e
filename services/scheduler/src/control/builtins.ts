import { SCHEDULER_NAME, SCHEDULER_VERSION } from '../version.ts';
import type { CommandRegistry } from './registry.ts';

/** `0d 01h 02m 03s`, Liquidsoap's uptime format. */
export function formatUptime(ms: number): string {
  let seconds = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(seconds / 86_400);
  seconds -= days * 86_400;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${days}d ${two(hours)}h ${two(minutes)}m ${two(seconds)}s`;
}

function listing(registry: CommandRegistry): string[] {
  return [
    'Available commands:',
    ...registry.list().map((command) => `| ${command.usage}`),
    '',
    'Type "help <command>" for more information.',
  ];
}

/**
 * The commands every control port has: `help`, `version`, `uptime`, and `quit`/`exit` (the
 * server itself answers those two, they are here so `help` lists them).
 */
export function registerBuiltins(registry: CommandRegistry, startedAt: () => number): void {
  registry.add('help', 'help [<command>]', 'Get information on available commands.', (args) => {
    const name = args.split(/\s+/, 1)[0] ?? '';
    if (!name) return listing(registry);
    const command = registry.get(name);
    if (!command) return [`No such command: ${name}`, ...listing(registry)];
    return [`Usage: ${command.usage}`, `  ${command.description}`];
  });
  registry.add('version', 'version', 'Display the name and version of the scheduler.', () => {
    return `${SCHEDULER_NAME} ${SCHEDULER_VERSION}`;
  });
  registry.add('uptime', 'uptime', 'Print the uptime of the scheduler.', () =>
    formatUptime(Date.now() - startedAt()),
  );
  registry.add('quit', 'quit', 'Close the connection.', () => 'Bye!');
  registry.add('exit', 'exit', 'Close the connection.', () => 'Bye!');
}
