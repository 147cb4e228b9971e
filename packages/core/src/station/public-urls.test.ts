import { describe, expect, it } from '@jest/globals';
import { listenerStreamBase } from './public-urls.ts';

describe('listenerStreamBase', () => {
  it('is PUBLIC_STREAM_URL, else PUBLIC_URL', () => {
    expect(listenerStreamBase(undefined, undefined)).toBeUndefined();
    expect(listenerStreamBase('http://radio.example:8000', undefined)).toBe(
      'http://radio.example:8000',
    );
    expect(listenerStreamBase(undefined, 'https://radio.example')).toBe('https://radio.example');
    expect(listenerStreamBase('https://cdn.example', 'https://radio.example')).toBe(
      'https://cdn.example',
    );
    expect(listenerStreamBase('http://radio.example:8000', 'http://radio.example')).toBe(
      'http://radio.example:8000',
    );
  });

  it('never hands an https page an http stream', () => {
    expect(listenerStreamBase('http://localhost:8000', 'https://radio.example')).toBe(
      'https://radio.example',
    );
  });
});
