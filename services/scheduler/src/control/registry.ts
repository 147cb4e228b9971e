import { SchedulerError } from '../errors.ts';
import type { ControlAnswer } from './answer.ts';

/**
 * Answers one command: gets the text after the command name (trimmed), returns the reply body
 * as lines (the server escapes and joins them).
 */
export type ControlHandler = (args: string) => ControlAnswer | Promise<ControlAnswer>;

export interface ControlCommand {
  readonly name: string;
  /** The usage line `help` prints, name included: `request.push <uri>`. */
  readonly usage: string;
  readonly description: string;
  readonly handler: ControlHandler;
}

/**
 * The control port's command table (Liquidsoap's `Server.add`): components register their own
 * commands; the server only parses lines and frames answers.
 */
export class CommandRegistry {
  readonly #commands = new Map<string, ControlCommand>();

  /** Registers a command; returns the function that removes it. */
  add(name: string, usage: string, description: string, handler: ControlHandler): () => void {
    if (!/^\S+$/.test(name)) throw new TypeError(`bad command name ${JSON.stringify(name)}`);
    if (this.#commands.has(name)) {
      throw new SchedulerError('SCHEDULER_COMMAND_EXISTS', `command ${name} is already registered`);
    }
    const command: ControlCommand = { name, usage: usage || name, description, handler };
    this.#commands.set(name, command);
    return () => {
      if (this.#commands.get(name) === command) this.#commands.delete(name);
    };
  }

  get(name: string): ControlCommand | undefined {
    return this.#commands.get(name);
  }

  /** Every command, sorted by name (byte order, as Liquidsoap lists them). */
  list(): ControlCommand[] {
    return [...this.#commands.values()].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  }
}
