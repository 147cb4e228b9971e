/**
 * The requesting side of commands: sends a command with this bus's reply channel, waits for the
 * answer (or a timeout, an abort, the close) and checks the result against its command's schema.
 */
import { randomUUID } from 'node:crypto';
import type { RequestOptions } from './bus.ts';
import { checkOutgoing, decodeReply, describeIssues } from './codec.ts';
import { type BusContext, checkTimeout, errorMessage } from './context.ts';
import {
  BusClosedError,
  BusInvalidMessageError,
  BusTimeoutError,
  BusUnavailableError,
  CommandFailedError,
} from './errors.ts';
import {
  type CommandPayloads,
  type CommandResults,
  type CommandType,
  commandPayloadSchemas,
  commandResultSchemas,
  isCommandType,
} from './messages.ts';

interface PendingRequest {
  type: CommandType;
  resolve(result: unknown): void;
  reject(error: unknown): void;
}

export class Requests {
  readonly #context: BusContext;
  readonly #timeoutMs: number;
  readonly #pending = new Map<string, PendingRequest>();
  /** Where the answers to this bus's requests come, and nobody else's. */
  readonly replyChannel: string;

  constructor(context: BusContext, timeoutMs: number) {
    this.#context = context;
    this.#timeoutMs = checkTimeout(timeoutMs, 'requestTimeoutMs');
    this.replyChannel = `${context.names.replyPrefix}${randomUUID()}`;
  }

  /** Requests waiting for an answer. */
  get size(): number {
    return this.#pending.size;
  }

  async send<T extends CommandType>(
    type: T,
    payload: CommandPayloads[T],
    options: RequestOptions,
  ): Promise<CommandResults[T]> {
    const transport = this.#context.open(`send command "${type}"`);
    if (!isCommandType(type)) throw new BusInvalidMessageError(`unknown command type "${type}"`);
    const timeoutMs = checkTimeout(options.timeoutMs ?? this.#timeoutMs, 'timeoutMs');
    options.signal?.throwIfAborted();
    const checked = checkOutgoing(
      commandPayloadSchemas[type],
      payload,
      `payload for command "${type}"`,
    );
    if (!transport.isConnected()) {
      throw new BusUnavailableError(`cannot send command "${type}": the bus is disconnected`);
    }

    const id = randomUUID();
    const answer = this.#awaitAnswer(id, type, timeoutMs, options.signal);
    const raw = JSON.stringify({
      type,
      id,
      ts: Date.now(),
      replyTo: this.replyChannel,
      payload: checked,
    });
    try {
      await transport.publish(this.#context.names.commands, raw);
    } catch (error) {
      this.#pending.get(id)?.reject(
        new BusUnavailableError(`cannot send command "${type}": ${errorMessage(error)}`, {
          cause: error,
        }),
      );
    }
    return answer as Promise<CommandResults[T]>;
  }

  receiveReply(raw: string): void {
    const reply = this.#context.accept('reply', raw, decodeReply);
    if (!reply) return;
    const pending = this.#pending.get(reply.inReplyTo);
    if (!pending) {
      // Timed out or aborted already, or a second handler answered too.
      this.#context.log.debug({ inReplyTo: reply.inReplyTo }, 'reply to no pending request');
      return;
    }
    if (!reply.payload.ok) {
      const { code, message } = reply.payload.error;
      pending.reject(new CommandFailedError(pending.type, code, message));
      return;
    }
    const result = commandResultSchemas[pending.type].safeParse(reply.payload.result);
    if (!result.success) {
      const reason = `invalid result for command "${pending.type}": ${describeIssues(result.error)}`;
      this.#context.dropInvalid('reply', reason, raw);
      pending.reject(new BusInvalidMessageError(reason));
      return;
    }
    pending.resolve(result.data);
  }

  /** The bus is closing: every request still waiting fails with BusClosedError. */
  rejectAll(): void {
    for (const pending of [...this.#pending.values()]) {
      pending.reject(
        new BusClosedError(`the bus was closed before command "${pending.type}" was answered`),
      );
    }
  }

  /** Registers request `id` as pending until it is answered, times out or is aborted. */
  #awaitAnswer(
    id: string,
    type: CommandType,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const answer = new Promise<unknown>((resolve, reject) => {
      const settle = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
      };
      const timer = setTimeout(() => {
        settle();
        reject(new BusTimeoutError(type, timeoutMs));
      }, timeoutMs);
      const onAbort = () => {
        settle();
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        type,
        resolve: (result) => {
          settle();
          resolve(result);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
    });
    // The answer may fail (close, abort) while the command is still being published; it is
    // returned to the caller afterwards, so keep Node from reporting it as unhandled meanwhile.
    answer.catch(() => {});
    return answer;
  }
}
