// The api's setup lines as radioctl status reads them from its container's log.
import { describe, expect, test } from '@jest/globals';
import { FIRST_ADMIN_CREATED, SetupLog, setupEvent, WAITING_FOR_ADMIN } from '../src/setup-log.ts';

/** A line as the api's pino logger writes it. */
function apiLine(msg: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    level: 'info',
    time: '2026-12-03T18:00:00.000Z',
    service: 'api',
    ...fields,
    msg,
  });
}

const waiting = (code: string): string => apiLine(WAITING_FOR_ADMIN, { setupCode: code });
const created = apiLine(FIRST_ADMIN_CREATED, { user: 'ana' });

function read(text: string, chunkSize = text.length): string | null {
  const log = new SetupLog();
  const bytes = Buffer.from(text, 'utf8');
  for (let at = 0; at < bytes.length; at += chunkSize) {
    log.write(bytes.subarray(at, at + chunkSize));
  }
  log.end();
  return log.code();
}

describe('setupEvent', () => {
  test('the waiting line gives its code, the created line says done', () => {
    expect(setupEvent(waiting('K7Q4-XM2P'))).toEqual({ pending: true, code: 'K7Q4-XM2P' });
    expect(setupEvent(created)).toEqual({ pending: false });
  });

  test('other lines, text that is not JSON and lines without a code say nothing', () => {
    expect(setupEvent(apiLine('listening', { port: 3000 }))).toBeNull();
    expect(setupEvent(`note: ${WAITING_FOR_ADMIN}`)).toBeNull();
    expect(setupEvent(apiLine(WAITING_FOR_ADMIN))).toBeNull();
    expect(setupEvent(apiLine(WAITING_FOR_ADMIN, { setupCode: 42 }))).toBeNull();
    expect(setupEvent('"first admin created"')).toBeNull();
  });

  test("only the line's own message counts, not text quoted in another field", () => {
    const request = apiLine('request', { url: `/?q=${FIRST_ADMIN_CREATED}`, setupCode: 'x' });
    expect(setupEvent(request)).toBeNull();
    const quoted = apiLine('request', { note: WAITING_FOR_ADMIN, setupCode: 'SPOOFED1' });
    expect(setupEvent(quoted)).toBeNull();
  });
});

describe('SetupLog', () => {
  test('pending while the latest setup line is the waiting one', () => {
    const log = [apiLine('migrations done'), waiting('AAAA-1111'), apiLine('listening')];
    expect(read(`${log.join('\n')}\n`)).toBe('AAAA-1111');
  });

  test('nothing once the first admin is created, whatever came before', () => {
    expect(read(`${waiting('AAAA-1111')}\n${apiLine('login')}\n${created}\n`)).toBeNull();
  });

  test('a later start that waits again (a restart before setup) gives the newest code', () => {
    expect(read(`${waiting('OLD-CODE1')}\n${waiting('NEW-CODE2')}\n`)).toBe('NEW-CODE2');
  });

  test('an empty log, or one with no setup line, says nothing', () => {
    expect(read('')).toBeNull();
    expect(read(`${apiLine('listening')}\n`)).toBeNull();
  });

  test('lines split across chunks, a multi-byte character split too, CRLF, no last newline', () => {
    const text = `${apiLine('héllo ✓')}\r\n${waiting('ÇODE-ÆØÅ1')}`;
    for (const size of [1, 2, 3, 7, 64]) expect(read(text, size)).toBe('ÇODE-ÆØÅ1');
  });
});
