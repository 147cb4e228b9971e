import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import { componentLogger, createLogger } from './logger.ts';

function capture(): { stream: Writable; lines: () => Record<string, unknown>[] } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  const lines = () =>
    chunks
      .join('')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { stream, lines };
}

describe('logger', () => {
  it('writes JSON lines with the service, a level label and an ISO time', () => {
    const out = capture();
    const logger = createLogger({ service: 'stream', destination: out.stream });
    logger.info({ mount: '/radio.mp3' }, 'source connected');
    const [line] = out.lines();
    expect(line).toMatchObject({
      service: 'stream',
      level: 'info',
      mount: '/radio.mp3',
      msg: 'source connected',
    });
    expect(String(line?.time)).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('gives each component a child that carries its context', () => {
    const out = capture();
    const logger = createLogger({ service: 'scheduler', level: 'debug', destination: out.stream });
    componentLogger(logger, 'decoder', { trackId: 7 }).debug('started');
    expect(out.lines()[0]).toMatchObject({
      service: 'scheduler',
      component: 'decoder',
      trackId: 7,
      level: 'debug',
    });
  });

  it('refuses a component made from another, which would write `component` twice', () => {
    const logger = createLogger({ service: 'api', destination: capture().stream });
    const api = componentLogger(logger, 'api');
    expect(() => componentLogger(api, 'sessions')).toThrow(/made from the "api" one/);
    expect(() => componentLogger(logger, 'sessions')).not.toThrow();
  });

  it('drops lines below its level', () => {
    const out = capture();
    const logger = createLogger({ service: 'api', level: 'warn', destination: out.stream });
    logger.info('quiet');
    logger.error('loud');
    expect(out.lines().map((l) => l.msg)).toEqual(['loud']);
  });
});
