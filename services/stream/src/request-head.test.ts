import { describe, expect, test } from '@jest/globals';
import { findHeadEnd, parseRequestHead, queryOf } from './request-head.ts';

const parse = (text: string) => {
  const buf = Buffer.from(text, 'latin1');
  return parseRequestHead(buf, findHeadEnd(buf));
};

describe('request heads', () => {
  test('Liquidsoap SOURCE request, with the first audio bytes after it', () => {
    const result = parse(
      'SOURCE /probe.mp3 HTTP/1.0\r\nice-name: Probe MP3\r\nAuthorization: Basic c291cmNlOmhhY2ttZS1zb3VyY2U=\r\nContent-Type: audio/mpeg\r\n\r\n\xff\xfb\x90D',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.head).toMatchObject({
      method: 'SOURCE',
      path: '/probe.mp3',
      version: 'HTTP/1.0',
    });
    expect(result.head.headers.get('ice-name')).toBe('Probe MP3');
    expect(result.head.headers.get('content-type')).toBe('audio/mpeg');
    expect([...result.head.rest]).toEqual([0xff, 0xfb, 0x90, 0x44]);
  });

  test('bare LF lines, repeated headers, a decoded path and the query', () => {
    const result = parse('GET /caf%C3%A9.mp3?mount=/x&song=a%20b HTTP/1.1\nX-A: 1\nx-a: 2\n\n');
    expect(result.ok && result.head.path).toBe('/café.mp3');
    expect(result.ok && result.head.headers.get('x-a')).toBe('1, 2');
    expect(result.ok && queryOf(result.head.target).get('song')).toBe('a b');
  });

  test('the end of the head is found across reads', () => {
    const buf = Buffer.from('GET / HTTP/1.0\r\nA: b\r\n\r\nrest');
    expect(findHeadEnd(buf)).toBe(buf.length - 4);
    expect(findHeadEnd(Buffer.from('GET / HTTP/1.0\r\nA: b\r\n'))).toBe(-1);
    expect(findHeadEnd(buf, 20)).toBe(buf.length - 4);
  });

  test.each([
    ['BLAH\r\n\r\n', 'malformed request line'],
    ['GET http://x/ HTTP/1.0\r\n\r\n', 'request target is not a path'],
    ['GET /%zz HTTP/1.0\r\n\r\n', 'malformed percent-encoding in the path'],
    ['GET / HTTP/1.0\r\nno colon\r\n\r\n', 'malformed header line'],
    ['GET / HTTP/1.0\r\nBad Name: x\r\n\r\n', 'malformed header line'],
    ['GET /a%00b HTTP/1.0\r\n\r\n', 'NUL in the path'],
  ])('%j is refused: %s', (text, reason) => {
    expect(parse(text)).toEqual({ ok: false, reason });
  });
});
