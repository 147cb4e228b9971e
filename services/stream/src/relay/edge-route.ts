import { type EdgeListeners, edgeListenersSchema } from '@radio/core';
import { errorReply, type Reply } from '../http-reply.ts';
import type { EdgeDirectory } from './edge-directory.ts';

/**
 * `POST /admin/edge-listeners` (admin credentials, form field `report`: an `edge.listeners`
 * payload as JSON): how an edge without Redis reports its listeners. The answer lists the edges
 * the origin knows, so a full edge can send new listeners to one with room.
 */
export function edgeReportReply(
  method: string,
  report: string | null,
  directory: EdgeDirectory,
): Reply {
  if (method !== 'POST') return errorReply('STREAM_METHOD_NOT_ALLOWED');
  let parsed: ReturnType<typeof edgeListenersSchema.safeParse>;
  try {
    parsed = edgeListenersSchema.safeParse(JSON.parse(report ?? ''));
  } catch {
    return errorReply('STREAM_BAD_REQUEST', 'report must be an edge.listeners payload as JSON');
  }
  if (!parsed.success) {
    return errorReply('STREAM_BAD_REQUEST', `bad report: ${parsed.error.issues[0]?.message}`);
  }
  directory.update(parsed.data);
  const edges: EdgeListeners[] = directory
    .edges()
    .map(({ node, url, mounts, maxListeners, ts }) => ({ node, url, mounts, maxListeners, ts }));
  return {
    status: 200,
    contentType: 'application/json; charset=utf-8',
    body: JSON.stringify({ edges }),
    length: true,
  };
}
