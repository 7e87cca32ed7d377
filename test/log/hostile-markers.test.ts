import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A log whose every line is a marker (a step that printed 20 M `##[error]` lines) took the file path a
 * minute and 2 GB, the stream path four minutes, and a 22 MB log of 2 M such lines 456 MB kept whole. The
 * bounds that stop it, scaled down through limits.ts so that a few MB exercise them. The repeated line is a
 * real runner annotation (victory's tsc job); the log around it is that job's real log.
 */
vi.mock('../../src/limits.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/limits.js')>()),
  FULL_KEEP_LINES: 5_000,
  MIDDLE_TARGETED_LINES: 1_000,
}));

const L = await import('../../src/limits.js');
const { scanLog } = await import('../../src/log/scan-log.js');
const { TargetedTap } = await import('../../src/log/targeted-tap.js');
const { startDenseSearches } = await import('../../src/log/sample-dense-middle.js');
const { findEvidence } = await import('../../src/evidence/index.js');

const real = readFileSync(new URL('../../fixtures/real-logs/javascript-jest-2544418976.log', import.meta.url), 'utf8').replace(/\n?$/, '\n');
const annotation = real.split('\n').find((l) => l.includes('##[error]victory-bar: [types.create-lib]'))!;
const dir = mkdtempSync(join(tmpdir(), 'redline-markers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The real log's first half, then `count` copies of the annotation, then the real log's end. */
function markerLog(count: number): Buffer {
  const lines = real.split('\n');
  const half = Math.floor(lines.length / 2);
  return Buffer.from(lines.slice(0, half).join('\n') + '\n' + `${annotation}\n`.repeat(count) + lines.slice(half).join('\n'));
}

async function* chunks(buf: Buffer, size = 64 * 1024) {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

describe('a log of markers on every line', () => {
  it('is read as a big one past FULL_KEEP_LINES, though its bytes are under FULL_KEEP_BYTES', async () => {
    // More lines than the tail keeps, so that whole it would not be.
    const buf = markerLog(L.TAIL_LINES + 20_000);
    expect(buf.length).toBeLessThan(L.FULL_KEEP_BYTES);
    const scan = await scanLog(chunks(buf));
    expect(scan.complete).toBe(false);
    expect(scan.totalLines).toBe(buf.toString('utf8').split('\n').length - (buf.at(-1) === 10 ? 1 : 0));
    expect(scan.lines.length).toBeLessThan(L.HEAD_LINES + L.TAIL_LINES + L.MAX_MIDDLE_LINES);
    // The real failing end is still read.
    expect(scan.lines.at(-1)!.n).toBe(scan.totalLines);
  });

  it('a sampled stream hands on at most MIDDLE_TARGETED_LINES matched lines, then every segment with none, in order', async () => {
    const seg = Buffer.from(`${annotation}\n`.repeat(400));
    const got: { len: number; starts: number }[] = [];
    const tap = new TargetedTap(['##[error]'], (s, starts) => got.push({ len: s.buf.length, starts: starts.length }), () => {
      throw new Error('ripgrep should not have failed');
    });
    // (ripgrep answers a segment once it has read past it: the segments go in together, as a stream's do.)
    for (let i = 0; i < 20; i++) tap.push({ buf: seg });
    await tap.end();
    expect(got).toHaveLength(20);
    expect(got.every((g) => g.len === seg.length)).toBe(true);
    const matched = got.reduce((a, g) => a + g.starts, 0);
    expect(matched).toBeGreaterThan(0);
    expect(matched).toBeLessThanOrEqual(L.MIDDLE_TARGETED_LINES);
    // After the bound, segments come back with no matched line at all.
    expect(got.at(-1)!.starts).toBe(0);
  });

  it("a big file's targeted search stops at MIDDLE_TARGETED_LINES", async () => {
    const path = join(dir, 'markers.log');
    writeFileSync(path, markerLog(5_000));
    const { targeted } = startDenseSearches(path, []);
    const found = await targeted;
    expect(found.length).toBe(L.MIDDLE_TARGETED_LINES);
    // The ones it kept are the file's own lines, in order, numbered by ripgrep.
    const text = readFileSync(path);
    for (const t of found) expect(t.at === 0 || text[t.at - 1] === 10).toBe(true);
    expect(found.filter((t) => text.subarray(t.at, t.at + annotation.length).toString() === annotation).length).toBeGreaterThan(L.MIDDLE_TARGETED_LINES / 2);
    expect(found.every((t, i) => i === 0 || t.n > found[i - 1]!.n)).toBe(true);
  });

  // The annotation carries tsc's own message, so it is evidence in its own right (not the runner restating
  // a failure): a message repeated 5,000 times is quoted from its first copies, within the bound.
  it('evidence quotes at most MAX_EVIDENCE_LINES of 5,000 repeated runner error lines, the first ones', () => {
    const lines = Array.from({ length: 5_000 }, (_, i) => ({ n: i + 1, text: annotation.replace(/^\S+ /, '') }));
    const picked = findEvidence({ lines, signals: [], category: 'unknown', runnerErrorLines: lines.map((l) => l.n) });
    expect(picked.lines.length).toBeGreaterThan(0);
    expect(picked.lines.length).toBeLessThanOrEqual(L.MAX_EVIDENCE_LINES);
    expect(picked.lines[0]!.line).toBe(1);
  });
});
