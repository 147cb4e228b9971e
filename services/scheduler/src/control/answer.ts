/**
 * A command's answer body as its handler returns it: one line (a string), lines (sent with CRLF
 * between them) or `{ lf: lines }` (LF between them, as Liquidsoap prints `request.metadata`).
 * Handlers never join lines themselves: the server does, after `escapeLine` on each, so a title,
 * file name or DJ name holding `\r\nEND\r\n` can neither end an answer early nor add a line.
 */
export type ControlAnswer = string | readonly string[] | { readonly lf: readonly string[] };

/** C0, DEL and C1 controls (CR, LF, ESC, NEL …) and the Unicode line and paragraph separators. */
const CONTROL = /[\p{Cc}\u2028\u2029]/gu;
const NAMED: Readonly<Record<string, string>> = { '\r': '\\r', '\n': '\\n', '\t': '\\t' };

/** `text` as one line: each control character written as an escape (`\r`, `\n`, `\u001b`). */
export function escapeLine(text: string): string {
  return text.replace(
    CONTROL,
    (char) => NAMED[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The body sent before `\r\nEND\r\n`. */
export function renderAnswer(answer: ControlAnswer): string {
  if (typeof answer === 'string') return escapeLine(answer);
  if ('lf' in answer) return answer.lf.map(escapeLine).join('\n');
  return answer.map(escapeLine).join('\r\n');
}
