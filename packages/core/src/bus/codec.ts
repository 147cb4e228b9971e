/**
 * Turning messages into the JSON text that travels on a channel and back, with validation on
 * both sides. Both bus implementations use this, so they accept and reject the same things.
 */
import type { z } from 'zod';
import { BusInvalidMessageError } from './errors.ts';
import {
  type CommandMessage,
  type CommandType,
  commandEnvelopeSchema,
  commandPayloadSchemas,
  type EventMessage,
  eventEnvelopeSchema,
  eventPayloadSchemas,
  isCommandType,
  isEventType,
  type ReplyMessage,
  replyMessageSchema,
} from './messages.ts';

export type Decoded<T> = { ok: true; message: T } | { ok: false; reason: string };

/** A command whose envelope is fine but whose payload is not: it can still be answered. */
export type DecodedCommand =
  | { ok: true; message: CommandMessage }
  | {
      ok: false;
      reason: string;
      answerable?: { id: string; type: CommandType; replyTo: string };
    };

/** Zod issues as one short line: `items.0.title: expected string; total: too small`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ` : '') + issue.message)
    .join('; ');
}

/** Validates what this process is about to send; a mismatch is a bug of the caller. */
export function checkOutgoing<S extends z.ZodType>(
  schema: S,
  value: unknown,
  what: string,
): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new BusInvalidMessageError(`invalid ${what}: ${describeIssues(parsed.error)}`);
  }
  return parsed.data;
}

function parseJson(raw: string): { ok: true; value: unknown } | { ok: false; reason: string } {
  try {
    return { ok: true, value: JSON.parse(raw) };
  } catch (error) {
    return { ok: false, reason: `not JSON: ${(error as Error).message}` };
  }
}

export function decodeEvent(raw: string): Decoded<EventMessage> {
  const json = parseJson(raw);
  if (!json.ok) return json;
  const envelope = eventEnvelopeSchema.safeParse(json.value);
  if (!envelope.success) {
    return { ok: false, reason: `not an event envelope: ${describeIssues(envelope.error)}` };
  }
  const { type } = envelope.data;
  if (!isEventType(type)) return { ok: false, reason: `unknown event type "${type}"` };
  const payload = eventPayloadSchemas[type].safeParse(envelope.data.payload);
  if (!payload.success) {
    return {
      ok: false,
      reason: `invalid payload for event "${type}": ${describeIssues(payload.error)}`,
    };
  }
  const message = { type, id: envelope.data.id, ts: envelope.data.ts, payload: payload.data };
  return { ok: true, message: message as EventMessage };
}

export function decodeCommand(raw: string): DecodedCommand {
  const json = parseJson(raw);
  if (!json.ok) return json;
  const envelope = commandEnvelopeSchema.safeParse(json.value);
  if (!envelope.success) {
    return { ok: false, reason: `not a command envelope: ${describeIssues(envelope.error)}` };
  }
  const { type, id, ts, replyTo } = envelope.data;
  if (!isCommandType(type)) return { ok: false, reason: `unknown command type "${type}"` };
  const payload = commandPayloadSchemas[type].safeParse(envelope.data.payload);
  if (!payload.success) {
    return {
      ok: false,
      reason: `invalid payload for command "${type}": ${describeIssues(payload.error)}`,
      answerable: { id, type, replyTo },
    };
  }
  const message = { type, id, ts, replyTo, payload: payload.data };
  return { ok: true, message: message as CommandMessage };
}

/** Checks the reply envelope only; the result is checked by the requester, who knows its type. */
export function decodeReply(raw: string): Decoded<ReplyMessage> {
  const json = parseJson(raw);
  if (!json.ok) return json;
  const reply = replyMessageSchema.safeParse(json.value);
  if (!reply.success) {
    return { ok: false, reason: `not a reply: ${describeIssues(reply.error)}` };
  }
  return { ok: true, message: reply.data };
}

/** The start of a raw message, for a log line about why it was dropped. */
export function excerpt(raw: string, max = 200): string {
  return raw.length > max ? `${raw.slice(0, max)}… (${raw.length} chars)` : raw;
}
