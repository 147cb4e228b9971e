/*
 * A web page can make the browser POST to http://127.0.0.1:1234 (a form or `fetch` in no-cors
 * mode: no preflight), and some browsers send it: the request head and body arrive on the control
 * port as lines, and each body line would run as a command (`request.skip`, `var.set amplify 0`).
 * No control client speaks HTTP, so a line that is an HTTP request line or a `Host:` header
 * (every browser sends one) marks the connection as a browser's, and nothing of it runs.
 */

/** `METHOD target HTTP/x.y`: any token as the method (a custom one keeps its case). */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9a-z-]+ \S+ HTTP\/\d+(?:\.\d+)?$/i;
const HOST_HEADER = /^host[ \t]*:/i;

/** Whether a line of the control port is part of an HTTP request. */
export function isHttpLine(line: string): boolean {
  return REQUEST_LINE.test(line) || HOST_HEADER.test(line);
}
