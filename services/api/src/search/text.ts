/* How the library search compares text: folded for matching, keyed for sorting. */

/** Lower case without accents: "Beyoncé" and "BEYONCE" both become "beyonce". */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '');
}

/** The words of a search; control characters separate words (and never match the separator). */
export function searchTokens(q: string | undefined): string[] {
  if (q === undefined) return [];
  const words = fold(q)
    .replace(/\p{Cc}/gu, ' ')
    .split(/\s+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)];
}

/**
 * How text sorts: case and accents ignored, numbers by value ("Track 9" before "Track 10").
 * A precomputed key compared by code unit is what Intl.Collator does for these rules, at a
 * fraction of its cost on 10,000 titles.
 */
export function sortKey(text: string): string {
  return fold(text.trim()).replace(/[0-9]+/g, (digits) => {
    const value = digits.replace(/^0+(?=[0-9])/, '');
    // The length first: a longer number is a larger one.
    return `${String.fromCharCode(0x30 + Math.min(value.length, 40))}${value}`;
  });
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
