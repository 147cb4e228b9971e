import type { create } from 'xmlbuilder2';
import type { EdgeSnapshot } from '../stats.ts';

type XMLBuilder = ReturnType<typeof create>;

/** As stats-xml's `icecastIsoDate` (which imports this module, so not imported from there). */
function isoDate(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}+0000`;
}

/**
 * An origin's edges in stats.xml, after the sources: one `<edge node="...">` each with its
 * listeners, URL, limit and per-mount counts (not Icecast elements; its clients skip them).
 */
export function appendEdgesXml(root: XMLBuilder, edges: readonly EdgeSnapshot[]): void {
  for (const edge of edges) {
    const element = root.ele('edge', { node: edge.node });
    element.ele('listeners').txt(String(edge.listeners));
    element.ele('listenurl').txt(edge.url);
    element
      .ele('max_listeners')
      .txt(edge.maxListeners === null ? 'unlimited' : String(edge.maxListeners));
    element.ele('reported_iso8601').txt(isoDate(edge.reportedAt));
    for (const mount of edge.mounts) {
      element.ele('mount', { path: mount.mount }).ele('listeners').txt(String(mount.listeners));
    }
  }
}

/** The same for status-json.xsl's `icestats.edges`. */
export function edgesJson(edges: readonly EdgeSnapshot[]): Record<string, unknown>[] {
  return edges.map((edge) => ({
    node: edge.node,
    listeners: edge.listeners,
    listenurl: edge.url,
    max_listeners: edge.maxListeners,
    mounts: edge.mounts,
    reported_iso8601: isoDate(edge.reportedAt),
  }));
}
