/*
 * The n-gram posting lists of the library search: for every two- and three-character n-gram
 * of the tracks' text, the tracks it occurs in. A search's candidates are the intersection
 * of its words' lists; each candidate is then checked in full.
 */

/** log2 of the number of n-gram buckets: 256 Ki, a few per distinct n-gram of a big library. */
const GRAM_BITS = 18;
/** Candidates few enough to check in full rather than walk one more posting list. */
const FEW_CANDIDATES = 16;

/**
 * The bucket of the two- or three-character n-gram at `at`. Different n-grams may share a
 * bucket; that only adds candidates, which are checked in full anyway, and never loses a match.
 */
function gramBucket(text: string, at: number, length: 2 | 3): number {
  const mixed =
    Math.imul(text.charCodeAt(at), 0x9e3779b1) ^
    Math.imul(text.charCodeAt(at + 1), 0x85ebca77) ^
    (length === 3 ? Math.imul(text.charCodeAt(at + 2), 0xc2b2ae3d) : 0x27d4eb2f);
  return Math.imul(mixed ^ (mixed >>> 15), 0x2c1b3c6d) >>> (32 - GRAM_BITS);
}

/** The buckets every match of a word is in: its trigrams, or its bigram if it has two letters. */
function wordBuckets(word: string): number[] {
  if (word.length === 2) return [gramBucket(word, 0, 2)];
  const buckets: number[] = [];
  for (let at = 0; at + 2 < word.length; at++) buckets.push(gramBucket(word, at, 3));
  return buckets;
}

/** The first position from `from` on in sorted `list` whose value is not below `value`. */
function lowerBound(list: Int32Array, value: number, from: number): number {
  // Galloping: the next match is usually near, and a long list is then crossed in big steps.
  let low = from;
  let step = 1;
  while (low + step < list.length && (list[low + step] as number) < value) {
    low += step;
    step *= 2;
  }
  let high = Math.min(low + step, list.length);
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((list[mid] as number) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** The values in both sorted lists; `small` is walked, `large` is searched. */
function intersect(small: Int32Array, large: Int32Array): Int32Array {
  const both = new Int32Array(small.length);
  let n = 0;
  let at = 0;
  for (const value of small) {
    at = lowerBound(large, value, at);
    if (at === large.length) break;
    if (large[at] === value) both[n++] = value;
  }
  return both.subarray(0, n);
}

/** Posting lists of every bucket in two flat arrays: bucket b is postings[starts[b]..starts[b+1]]. */
interface GramTable {
  starts: Int32Array;
  postings: Int32Array;
}

/**
 * Two passes over every text, typed arrays only (a Map of lists took ~20 times longer): count
 * each bucket once per text, then fill the lists in text order, so every list is sorted.
 */
function buildGramTable(texts: readonly string[]): GramTable {
  const buckets = 1 << GRAM_BITS;
  const counts = new Int32Array(buckets + 1);
  const lastText = new Int32Array(buckets).fill(-1);
  const visit = (add: (bucket: number, text: number) => void) => {
    lastText.fill(-1);
    texts.forEach((text, i) => {
      for (let at = 0; at + 1 < text.length; at++) {
        const bigram = gramBucket(text, at, 2);
        if (lastText[bigram] !== i) {
          lastText[bigram] = i;
          add(bigram, i);
        }
        if (at + 2 === text.length) continue;
        const trigram = gramBucket(text, at, 3);
        if (lastText[trigram] !== i) {
          lastText[trigram] = i;
          add(trigram, i);
        }
      }
    });
  };
  visit((bucket) => {
    counts[bucket + 1] = (counts[bucket + 1] as number) + 1;
  });
  for (let b = 0; b < buckets; b++)
    counts[b + 1] = (counts[b + 1] as number) + (counts[b] as number);
  const starts = counts;
  const fill = starts.slice(0, buckets);
  const postings = new Int32Array(starts[buckets] as number);
  visit((bucket, text) => {
    const at = fill[bucket] as number;
    postings[at] = text;
    fill[bucket] = at + 1;
  });
  return { starts, postings };
}

/** The posting lists of a fixed list of texts, built at the first search that needs them. */
export class GramIndex {
  readonly #texts: readonly string[];
  #table: GramTable | null = null;

  constructor(texts: readonly string[]) {
    this.#texts = texts;
  }

  /**
   * The texts that can contain every word: the intersection of the posting lists of the
   * words' n-grams, shortest first. Null when no word has two characters, so every text is a
   * candidate.
   */
  candidates(words: readonly string[]): Int32Array | null {
    const buckets = new Set(words.flatMap((word) => (word.length < 2 ? [] : wordBuckets(word))));
    if (buckets.size === 0) return null;
    this.#table ??= buildGramTable(this.#texts);
    const { starts, postings } = this.#table;
    const lists = Array.from(buckets, (bucket) =>
      postings.subarray(starts[bucket], starts[bucket + 1]),
    ).sort((a, b) => a.length - b.length);
    let candidates = lists[0] as Int32Array;
    for (let k = 1; k < lists.length && candidates.length > FEW_CANDIDATES; k++)
      candidates = intersect(candidates, lists[k] as Int32Array);
    return candidates;
  }
}
