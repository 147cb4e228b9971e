import { formatOf } from '../formats/index.ts';
import { isValidMountPath } from '../options.ts';

/** A mount the origin lists that the edge can relay. */
export interface OriginMount {
  path: string;
  contentType: string;
  /** Where the origin says listeners hear it (`listenurl`), if it says. */
  listenUrl: string | null;
}

/** A listed mount the edge leaves out, and why. */
export interface SkippedMount {
  path: string;
  why: string;
}

export interface OriginList {
  mounts: OriginMount[];
  skipped: SkippedMount[];
}

/** Why the origin could not be asked: logged, then the edge retries. */
export class OriginError extends Error {
  readonly kind: 'unreachable' | 'refused' | 'bad-answer';
  constructor(kind: OriginError['kind'], message: string) {
    super(message);
    this.name = 'OriginError';
    this.kind = kind;
  }
}

const LIST_TIMEOUT_MS = 5000;

/**
 * The origin's live mounts from its `/admin/stats.xml` (ours or a real Icecast's), asked with
 * the admin credentials: it lists every source, public or not, with its content type. Throws
 * OriginError when the origin cannot be reached, refuses the credentials or answers nonsense.
 */
export async function fetchOriginList(origin: string, authorization: string): Promise<OriginList> {
  let res: Response;
  try {
    res = await fetch(new URL('/admin/stats.xml', origin), {
      headers: { authorization, 'user-agent': 'RadioEdge/1' },
      signal: AbortSignal.timeout(LIST_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    throw new OriginError('unreachable', `origin ${origin} unreachable: ${cause ?? String(error)}`);
  }
  const body = await res.text().catch(() => '');
  if (res.status === 401 || res.status === 403) {
    throw new OriginError(
      'refused',
      `origin ${origin} refused the relay credentials (${res.status})`,
    );
  }
  if (!res.ok || !body.includes('<icestats')) {
    throw new OriginError(
      'bad-answer',
      `origin ${origin} answered /admin/stats.xml with ${res.status}`,
    );
  }
  return parseStatsXml(body);
}

/** The sources of a stats.xml document: relayable ones, and the rest with the reason. */
export function parseStatsXml(xml: string): OriginList {
  const list: OriginList = { mounts: [], skipped: [] };
  for (const match of xml.matchAll(/<source mount="([^"]*)"\s*>([\s\S]*?)<\/source>/g)) {
    const path = unescapeXml(match[1] as string);
    const fields = match[2] as string;
    const type = /<server_type>([^<]*)<\/server_type>/.exec(fields)?.[1];
    const listenUrl = /<listenurl>([^<]*)<\/listenurl>/.exec(fields)?.[1];
    const contentType = type === undefined ? '' : unescapeXml(type).trim();
    const why = !isValidMountPath(path)
      ? 'not a mount path'
      : contentType === ''
        ? 'no content type'
        : formatOf(contentType).frameFormat === null
          ? `${contentType} is not MP3 or AAC, which the edge cuts into frames`
          : null;
    if (why === null) {
      list.mounts.push({
        path,
        contentType,
        listenUrl: listenUrl && URL.canParse(listenUrl) ? unescapeXml(listenUrl) : null,
      });
    } else {
      list.skipped.push({ path, why });
    }
  }
  return list;
}

function unescapeXml(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');
}
