import { describe, expect, test } from '@jest/globals';
import { ChunkedDecoder } from './chunked-decoder.ts';

const encoded = Buffer.from('5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nX-Trailer: 1\r\n\r\n');

describe('ChunkedDecoder', () => {
  test.each([1, 2, 5, 100])('decodes whatever the read size (%i)', (size) => {
    const decoder = new ChunkedDecoder();
    const out: Buffer[] = [];
    for (let i = 0; i < encoded.length; i += size) {
      expect(
        decoder.push(encoded.subarray(i, i + size), (data) => out.push(Buffer.from(data))),
      ).toBe(true);
    }
    expect(Buffer.concat(out).toString()).toBe('hello, world');
    expect(decoder.done).toBe(true);
  });

  test('refuses malformed framing', () => {
    expect(new ChunkedDecoder().push(Buffer.from('zz\r\n'), () => {})).toBe(false);
    expect(new ChunkedDecoder().push(Buffer.from('2\r\nabX\r\n'), () => {})).toBe(false);
  });
});
