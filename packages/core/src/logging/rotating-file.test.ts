import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from '@jest/globals';
import { capLine, RotatingFile } from './rotating-file.ts';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rotating-'));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('capLine', () => {
  test('a short line passes with one newline', () => {
    expect(capLine('hello', 100)).toBe('hello\n');
    expect(capLine('hello\n', 100)).toBe('hello\n');
  });

  test('a JSON line keeps its shape, its long strings cut', () => {
    const line = JSON.stringify({ level: 'info', ua: 'x'.repeat(16_384), msg: 'access' });
    const capped = capLine(line, 2048);
    expect(Buffer.byteLength(capped)).toBeLessThan(2048);
    const parsed = JSON.parse(capped) as Record<string, string>;
    expect(parsed.msg).toBe('access');
    expect(parsed.ua).toMatch(/^x{512}… \[15872 more\]$/);
  });

  test('plain text is cut at the limit and says so', () => {
    const capped = capLine(`1.2.3.4 - - "GET /" 200 "${'y'.repeat(20_000)}"`, 1024);
    expect(Buffer.byteLength(capped)).toBeLessThanOrEqual(1024);
    expect(capped.endsWith(' … [line cut]\n')).toBe(true);
  });
});

describe('RotatingFile', () => {
  test('a flood of huge lines never takes more than the files it may keep', () => {
    const dir = tempDir();
    const path = join(dir, 'access.log');
    const file = new RotatingFile(path, { maxBytes: 64 * 1024, keep: 2, maxLineBytes: 1024 });
    const huge = `1.2.3.4 - - "GET /radio.mp3 HTTP/1.1" 200 0 "-" "${'A'.repeat(16_384)}" 0`;
    for (let i = 0; i < 2000; i++) expect(file.write(huge)).toBe(true);
    file.write('the last line');
    file.close();
    expect(readdirSync(dir).sort()).toEqual(['access.log', 'access.log.1', 'access.log.2']);
    for (const name of readdirSync(dir)) {
      expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(64 * 1024);
    }
    expect(readFileSync(path, 'utf8').endsWith('the last line\n')).toBe(true);
  });

  test('appends to the file it finds, counting its size', () => {
    const path = join(tempDir(), 'station.log');
    const first = new RotatingFile(path, { maxBytes: 100 });
    first.write('a'.repeat(60));
    first.close();
    const second = new RotatingFile(path, { maxBytes: 100 });
    second.write('b'.repeat(60));
    second.close();
    expect(readFileSync(`${path}.1`, 'utf8')).toBe(`${'a'.repeat(60)}\n`);
    expect(readFileSync(path, 'utf8')).toBe(`${'b'.repeat(60)}\n`);
  });
});
