import type { ListenerCounts } from '@radio/core';
import type { Mount } from '../mount.ts';
import type { ServerSnapshot } from '../stats.ts';
import type { EdgeEntry } from './edge-directory.ts';

/** The User-Agent of an edge's pulls: the origin tells its edges from its audience by it. */
export const EDGE_AGENT = 'RadioEdge/1';

export function isEdgePull(userAgent: string): boolean {
  return userAgent.startsWith(EDGE_AGENT);
}

/** A mount's listeners that are edges pulling it, not audience. */
function edgePulls(mount: Mount | undefined): number {
  let count = 0;
  for (const listener of mount?.listeners ?? []) if (isEdgePull(listener.userAgent)) count += 1;
  return count;
}

function edgeListenersOf(edges: readonly EdgeEntry[], path: string): number {
  let sum = 0;
  for (const edge of edges) {
    for (const mount of edge.mounts) if (mount.mount === path) sum += mount.listeners;
  }
  return sum;
}

/**
 * The origin's snapshot counting the whole audience once: each mount's own listeners without
 * the edges' pulls, plus the listeners the edges report on it; the total likewise; the edges
 * listed. A listener of an edge is counted by that edge alone.
 */
export function withEdges(
  snapshot: ServerSnapshot,
  edges: readonly EdgeEntry[],
  mountOf: (path: string) => Mount | undefined,
): ServerSnapshot {
  let pulls = 0;
  const mounts = snapshot.mounts.map((mount) => {
    const own = edgePulls(mountOf(mount.path));
    pulls += own;
    const listeners = mount.listeners - own + edgeListenersOf(edges, mount.path);
    return { ...mount, listeners, peak: Math.max(mount.peak, listeners) };
  });
  const remote = edges.reduce((sum, edge) => sum + edge.listeners, 0);
  return {
    ...snapshot,
    listeners: snapshot.listeners - pulls + remote,
    mounts,
    edges: edges.map((edge) => ({
      node: edge.node,
      url: edge.url,
      listeners: edge.listeners,
      maxListeners: edge.maxListeners,
      mounts: edge.mounts,
      reportedAt: edge.receivedAt,
    })),
  };
}

/** `stream.listeners` with the same counting as `withEdges`. */
export function countsWithEdges(
  counts: ListenerCounts,
  edges: readonly EdgeEntry[],
  mountOf: (path: string) => Mount | undefined,
): ListenerCounts {
  let pulls = 0;
  const mounts = counts.mounts.map((entry) => {
    const own = edgePulls(mountOf(entry.mount));
    pulls += own;
    const listeners = entry.listeners - own + edgeListenersOf(edges, entry.mount);
    return { ...entry, listeners, peak: Math.max(entry.peak, listeners) };
  });
  const remote = edges.reduce((sum, edge) => sum + edge.listeners, 0);
  return { mounts, total: counts.total - pulls + remote };
}
