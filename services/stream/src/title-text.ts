/**
 * Text that sources and admins set (titles, the stream URL of an updinfo, the `ice-*` stream
 * details) as every output can carry it: line breaks and tabs become spaces, other control
 * characters (C0, DEL, C1) and the two non-characters XML forbids are dropped, and a lone
 * surrogate becomes U+FFFD. XML 1.0 has no way to write most control characters, ICY readers
 * take a line break for the end of the block, and escape sequences would reach the terminal
 * of whoever reads the admin page's log.
 */
export function cleanText(text: string): string {
  return text
    .toWellFormed()
    .replace(/[\t\n\r\u2028\u2029]+/g, ' ')
    .replace(/[\p{Cc}\uFFFE\uFFFF]/gu, '');
}
