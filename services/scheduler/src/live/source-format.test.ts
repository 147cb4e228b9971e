import { describe, expect, it } from '@jest/globals';
import { foreignContainer, formatOfType, sniffFormat } from './source-format.ts';

describe('live source formats', () => {
  it('reads the Content-Type, parameters and case aside', () => {
    expect(formatOfType('audio/mpeg')).toBe('mp3');
    expect(formatOfType('Application/Ogg; charset=x')).toBe('ogg');
    expect(formatOfType('audio/webm;codecs=opus')).toBe('webm');
    expect(formatOfType('text/plain')).toBeNull();
    expect(formatOfType(undefined)).toBeNull();
  });

  it('tells the container from the first bytes', () => {
    expect(sniffFormat(Buffer.from('OggS\0\x02'))).toBe('ogg');
    expect(sniffFormat(Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x01]))).toBe('webm');
    expect(sniffFormat(Buffer.from('ID3\x04\0'))).toBe('mp3');
    // MPEG-1 layer III, 128 kbit/s, 44.1 kHz
    expect(sniffFormat(Buffer.from([0x00, 0xff, 0xfb, 0x90, 0x64]))).toBe('mp3');
    expect(sniffFormat(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x2e]))).toBe('aac');
    expect(sniffFormat(Buffer.from('ab'))).toBe('pending');
    expect(sniffFormat(Buffer.alloc(4096, 'no audio here '))).toBeNull();
  });

  it('sees another container arriving in a stream', () => {
    const oggStart = Buffer.concat([Buffer.from('..OggS\0\x02'), Buffer.alloc(12)]);
    expect(foreignContainer('mp3', oggStart)).toBe('Ogg pages');
    expect(foreignContainer('ogg', oggStart)).toBeNull();
    // The magic alone, as compressed audio holds it now and then, is no new stream.
    expect(foreignContainer('mp3', Buffer.from('..OggS\x07\x01abcdefgh..'))).toBeNull();
    const ebml = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]);
    expect(foreignContainer('ogg', ebml)).toBe('a WebM header');
    expect(foreignContainer('mp3', Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0, 0, 0]))).toBeNull();
  });
});
