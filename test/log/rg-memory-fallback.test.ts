import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * ripgrep buffers a whole line; on a big file it runs with its address space capped (bounded-rg.ts), so
 * a line longer than the cap fails it and the file is read by the stream scanner instead, which cuts long
 * lines. The cap is scaled down here (16 MB) so that a 24 MB line of real passing-test lines exercises it.
 */
vi.mock('../../src/limits.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/limits.js')>()),
  FULL_KEEP_BYTES: 64 * 1024,
  HEAD_LINES: 40,
  TAIL_BYTES: 2 * 1024,
  MIDDLE_RECENT_BYTES: 16 * 1024,
  RG_LOG_MEMORY_BYTES: 16 * 1024 * 1024,
}));

const { readLog } = await import('../../src/log/read-log.js');
const { cleanText } = await import('../../src/log/clean.js');
const { findFailingStep } = await import('../../src/log/find-failing-step.js');
const { spawnBoundedRg, RgOutOfMemory } = await import('../../src/log/bounded-rg.js');

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8').replace(/\n$/, '').split('\n');
const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z /;
const mocha = read('fixtures/real-logs/javascript-mocha-2230809902.log');
const stepAt = mocha.findIndex((l) => l.includes('##[group]Run npm run ci:test'));
const passing = mocha.filter((l) => l.includes('✓') && /rror/.test(l)).map((l) => l.replace(STAMP, ''));
const jest = read('fixtures/logs/jest-paginate-off-by-one/log.txt');
const exit = mocha.find((l) => l.includes('##[error]Process completed')) ?? '##[error]Process completed with exit code 1.';

const dir = mkdtempSync(join(tmpdir(), 'redline-rg-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a line longer than ripgrep may buffer', () => {
  const before = [...mocha.slice(0, stepAt + 4), ...jest.slice(0, 6), ...Array.from({ length: 600 }, (_, i) => passing[i % passing.length]!)];
  const after = [...Array.from({ length: 600 }, (_, i) => passing[i % passing.length]!), exit.replace(STAMP, ''), ...Array.from({ length: 60 }, (_, i) => `[${i}] Uploading coverage report`)];
  const long = passing.join(' ').repeat(Math.ceil((24 << 20) / passing.join(' ').length));
  const path = join(dir, 'long-line.log');
  writeFileSync(path, [...before, long, ...after].join('\n') + '\n');

  it('fails ripgrep under its memory cap (a clear error, not 24 MB held)', async () => {
    const rg = spawnBoundedRg(['--text', '--no-mmap', '-c', '-F', '-e', 'rror', '--', path]);
    await expect(rg.done).rejects.toBeInstanceOf(RgOutOfMemory);
  });

  it('the file is still read: lines numbered right, the long one cut, the failing step found', async () => {
    const scan = await readLog(path);
    const want = cleanText([...before, '', ...after].join('\n') + '\n');
    expect(scan.totalLines).toBe(want.length);
    // Every byte counted, the long line's skipped rest too.
    expect(scan.bytes).toBe(statSync(path).size);
    const n = before.length + 1;
    for (const l of scan.lines.filter((l) => l.n !== n)) expect(l.text, `line ${l.n}`).toBe(want[l.n - 1]!.text);
    const cut = scan.lines.find((l) => l.n === n);
    if (cut) expect(cut.text).toMatch(/\[line cut at 16384 bytes\]$/);
    expect(findFailingStep(scan.lines, scan.sections, scan.totalLines).failing?.name).toBe('npm run ci:test');
  });
});
