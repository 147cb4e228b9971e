import { describe, expect, it } from '@jest/globals';
import { Closers } from './lifecycle.ts';
import { captureLogger } from './testing/index.ts';

describe('Closers', () => {
  it('closes in the reverse order of start, logs a failure and goes on, and closes once', async () => {
    const { logger, lines } = captureLogger();
    const closers = new Closers(logger);
    const order: string[] = [];
    closers.add(async () => order.push('database'));
    closers.add(async () => {
      throw new Error('bus refused');
    });
    closers.add(async () => order.push('server'));
    await closers.closeAll();
    await closers.closeAll();
    expect(order).toEqual(['server', 'database']);
    expect(lines.filter((line) => line.msg === 'stop failed')).toHaveLength(1);
  });
});
