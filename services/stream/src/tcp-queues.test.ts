import { describe, expect, test } from '@jest/globals';
import { parseInto, queueKey, type SendQueue } from './tcp-queues.ts';

describe('/proc/net/tcp send queues', () => {
  test('keys name connections as the kernel prints them', () => {
    expect(queueKey(8000, '127.0.0.1', 40_000)).toBe('1F40 0100007F:9C40');
    expect(queueKey(8000, '::ffff:127.0.0.1', 40_000)).toBe(
      '1F40 0000000000000000FFFF00000100007F:9C40',
    );
    expect(queueKey(8000, '::1', 1)).toBe('1F40 00000000000000000000000001000000:0001');
    expect(queueKey(undefined, '127.0.0.1', 1)).toBeNull();
  });

  test('only established sockets with data waiting are reported', () => {
    const text = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:1F40 00000000:0000 0A 00000000:00000000 00:00000000 00000000     0        0 1 1 0 100 0 0 10 0',
      '   1: 0100007F:1F40 0100007F:9C40 01 000A92C0:00000000 04:0000039D 00000000     0        0 2 1 0 20 4 30 10 -1',
      '   2: 0100007F:1F40 0100007F:9C41 01 00000000:00000000 00:00000000 00000000     0        0 3 1 0 20 4 30 10 -1',
      '10000: 0100007F:1F40 0100007F:9C42 01 00000010:00000000 00:00000000 00000000     0        0 4 1 0 20 4 30 10 -1',
      '',
    ].join('\n');
    const queues = new Map<string, SendQueue>();
    parseInto(text, queues);
    expect([...queues]).toEqual([
      ['1F40 0100007F:9C40', { bytes: 0xa92c0, zeroWindow: true }],
      ['1F40 0100007F:9C42', { bytes: 16, zeroWindow: false }],
    ]);
  });
});
