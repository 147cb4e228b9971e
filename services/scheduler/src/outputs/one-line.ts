/** Runs of C0, DEL and C1 controls (CR, LF, ESC, NEL …) and the Unicode line separators. */
const CONTROLS = /[\p{Cc}\u2028\u2029]+/gu;

/**
 * `text` with each run of control characters made one space, trimmed: what the stream server
 * gets as a title or an `ice-*` header. A title comes from a file's tags or a DJ's client; a
 * line break in it would end the header it travels in or reach listeners' players, and an
 * escape sequence their terminals.
 */
export function oneLine(text: string): string {
  return text.replace(CONTROLS, ' ').trim();
}
