import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';

/**
 * The bounded-hits rule on a small generated log (real lines: marko's mocha preamble and passing tests
 * saying "error", jest's failure report, a real step header), with the windows and the middle's bounds
 * scaled down (the windows through limits.ts, the middle through readLog's bounds parameter) so that a
 * few hundred KB exercise every class: the failing step's first hits, the markers, the rarest template,
 * the hits nearest the end; the rest dropped and counted. Same rule on the stream and the file path.
 */
vi.mock('../../src/limits.js', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/limits.js')>()),
  FULL_KEEP_BYTES: 64 * 1024,
  HEAD_LINES: 40,
  TAIL_BYTES: 2 * 1024,
  TAIL_LINES: 1000,
  MIDDLE_RECENT_BYTES: 16 * 1024,
  MAX_LOG_BYTES: 2 * 1024 * 1024,
  // A sampled stream hands lines up to this long to ripgrep; a longer one ends the sampling.
  STREAM_TAP_MAX_LINE_BYTES: 8 * 1024,
}));

const { readLog } = await import('../../src/log/read-log.js');
const { scanLog } = await import('../../src/log/scan-log.js');
const { openLog } = await import('../../src/log/open-log.js');
const { cleanText } = await import('../../src/log/clean.js');
const { findFailingStep } = await import('../../src/log/find-failing-step.js');
import type { MiddleBounds } from '../../src/log/middle-hits.js';

const bounds: MiddleBounds = { maxLines: 300, maxBytes: 24 * 1024, rareHits: 4, stepHits: 3, recentHits: 4, markerHits: 20, contextBefore: 2, contextAfter: 3, windowBytes: 2048 };

const read = (p: string) => readFileSync(new URL(`../../${p}`, import.meta.url), 'utf8').replace(/\n$/, '').split('\n');
const STAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z /;
const mocha = read('fixtures/real-logs/javascript-mocha-2230809902.log');
const stepAt = mocha.findIndex((l) => l.includes('##[group]Run npm run ci:test'));
const passing = mocha.filter((l) => l.includes('✓') && /rror/.test(l)).map((l) => l.replace(STAMP, ''));
const jest = read('fixtures/logs/jest-paginate-off-by-one/log.txt');
const codecov = mocha.find((l) => l.includes('##[group]Run codecov/codecov-action'))!.replace(STAMP, '');
const rare = 'Error: connect ECONNREFUSED 127.0.0.1:6379'; // a real ioredis line, once in the middle
const exit = mocha.find((l) => l.includes('##[error]Process completed')) ?? '##[error]Process completed with exit code 1.';

let t = Date.parse('2022-04-27T04:13:35Z');
const stamp = (l: string) => `${new Date((t += 3)).toISOString().replace('Z', '0000Z')} ${l}`;

/** The failing step (its first hits are jest's FAIL report), dense passing lines, a later step, dense again. */
function build(): string[] {
  const out = mocha.slice(0, stepAt + 4);
  out.push(...jest.slice(0, 6).map(stamp)); // FAIL test/orders.test.js, ✕ … : the failing step's headline
  for (let i = 0; i < 1500; i++) out.push(stamp(passing[i % passing.length]!));
  out.push(stamp(rare));
  for (let i = 0; i < 1500; i++) out.push(stamp(passing[i % passing.length]!));
  out.push(stamp(exit.replace(STAMP, '')));
  out.push(stamp(codecov), stamp('##[endgroup]'));
  for (let i = 0; i < 1500; i++) out.push(stamp(passing[i % passing.length]!));
  out.push(...Array.from({ length: 60 }, (_, i) => stamp(`[${i}] Uploading coverage report`)));
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'redline-middle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const lines = build();
const text = lines.join('\n') + '\n';
const truth = cleanText(text);
const NEEDLE = /rror|RROR|FAIL|##\[|xception|Killed|fatal/;

async function both() {
  const path = join(dir, 'dense.log');
  writeFileSync(path, text);
  return { stream: await readLog(Readable.from([Buffer.from(text)]), bounds), file: await readLog(path, bounds) };
}

describe('the bounded middle of a huge log (small bounds)', async () => {
  const scans = await both();
  for (const [path, scan] of Object.entries(scans)) {
    describe(`${path} path`, () => {
      const kept = new Map(scan.lines.map((l) => [l.n, l.text]));
      const head = 40;
      const tailStart = scan.lines.findLast((l, i, all) => i > 0 && all[i - 1]!.n !== l.n - 1)!.n;
      const middle = scan.lines.filter((l) => l.n > head && l.n < tailStart);

      it('every kept line is the line cleanText gives, in order', () => {
        expect(scan.totalLines).toBe(truth.length);
        for (const l of scan.lines) expect(l.text, `line ${l.n}`).toBe(truth[l.n - 1]!.text);
      });

      it('holds the middle within its bounds by count and bytes, and counts what it dropped', () => {
        expect(middle.length).toBeLessThanOrEqual(bounds.maxLines);
        expect(middle.reduce((s, l) => s + l.text.length + 1, 0)).toBeLessThanOrEqual(bounds.maxBytes);
        const note = scan.middle!;
        expect(note.hits).toBe(note.keptHits + note.droppedHits);
        expect(note.hits).toBeGreaterThan(4000);
        expect(note.droppedHits).toBeGreaterThan(note.hits * 0.95);
      });

      it("keeps the failing step's first hits with their context (it is not the last step)", () => {
        // Its first hits: its own header and `##[endgroup]`, then jest's FAIL line, its headline.
        const start = truth.find((l) => l.text === '##[group]Run npm run ci:test')!;
        const firstHits = truth.filter((l) => l.n >= start.n && NEEDLE.test(l.text)).slice(0, bounds.stepHits);
        expect(firstHits.at(-1)!.text).toBe('FAIL test/orders.test.js');
        for (const h of firstHits) {
          expect(kept.get(h.n), `hit ${h.n}`).toBe(h.text);
          for (let k = 1; k <= bounds.contextAfter; k++) expect(kept.has(h.n + k), `after ${h.n}`).toBe(true);
        }
      });

      it('keeps the rarest template, the markers, and the hits nearest the end', () => {
        expect(middle.some((l) => l.text === rare)).toBe(true);
        for (const m of truth.filter((l) => l.n > head && /^##\[(?:error\]|group\]Run )/.test(l.text))) expect(kept.get(m.n)).toBe(m.text);
        const recent = truth.filter((l) => l.n < tailStart && l.n > head && NEEDLE.test(l.text)).slice(-bounds.recentHits);
        for (const h of recent) expect(kept.get(h.n), `recent ${h.n}`).toBe(h.text);
      });

      it('still finds the failing step: the one with the runner error, not the later one', () => {
        const layout = findFailingStep(scan.lines, scan.sections, scan.totalLines);
        expect(layout.failing?.name).toBe('npm run ci:test');
        expect(layout.steps.map((s) => s.name)).toContain('codecov/codecov-action@v2');
      });
    });
  }
});

describe('the sampled middle (past its exact hits), on the file and the stream path', async () => {
  // A real Python traceback headline in the dense stretch: 'Traceback' is a needle no exact hit holds.
  const traceback = read('fixtures/real-logs/python-2422710472-orig.log').find((l) => l.includes('Traceback (most recent call last)'))!.replace(STAMP, '');
  const at = lines.findIndex((l, i) => i > 2500 && l.includes('✓'));
  // The stream's needles are fewer: a rare one it holds (a real JVM exception line) stands in for it there.
  const exception = read('fixtures/real-logs/maven-2003301608-orig.log').find((l) => /xception/.test(l) && !/rror/.test(l))!.replace(STAMP, '');
  const sampledLines = [...lines.slice(0, at), stamp(traceback), stamp(exception), ...lines.slice(at)];
  const sampledText = sampledLines.join('\n') + '\n';
  const sampledTruth = cleanText(sampledText);
  const path = join(dir, 'sampled.log');
  writeFileSync(path, sampledText);
  const sampled: MiddleBounds = { ...bounds, exactHits: 60, sampleEvery: 16 * 1024, sampleWindow: 2 * 1024 };
  const exact = await readLog(path, { ...bounds, exactHits: 1_000_000 });
  // The stream in uneven chunks: segments handed to ripgrep end at newlines, lines straddle chunks.
  const bytes = Buffer.from(sampledText);
  const chunks = Array.from({ length: Math.ceil(bytes.length / 9973) }, (_, i) => bytes.subarray(i * 9973, (i + 1) * 9973));
  const scans = { file: await readLog(path, sampled), stream: await readLog(Readable.from(chunks), sampled) };
  for (const [name, scan] of Object.entries(scans)) {
    const kept = new Map(scan.lines.map((l) => [l.n, l.text]));
    const tailStart = scan.lines.findLast((l, i, all) => i > 0 && all[i - 1]!.n !== l.n - 1)!.n;

    it(`${name}: keeps exact lines, within the bounds, and estimates the hits it never read (and says so)`, () => {
      expect(scan.totalLines).toBe(sampledTruth.length);
      for (const l of scan.lines) expect(l.text, `line ${l.n}`).toBe(sampledTruth[l.n - 1]!.text);
      const middle = scan.lines.filter((l) => l.n > 40 && l.n < tailStart);
      expect(middle.length).toBeLessThanOrEqual(sampled.maxLines);
      // The hits between the windows are extrapolated from the windows' density, and marked as such.
      expect(scan.middle!.hitsEstimated).toBe(true);
      expect(exact.middle!.hitsEstimated).toBeUndefined();
      expect(Math.abs(scan.middle!.hits - exact.middle!.hits)).toBeLessThan(exact.middle!.hits * 0.1);
      expect(scan.middle!.hits).toBe(scan.middle!.keptHits + scan.middle!.droppedHits);
      // Most hits were never read.
      expect(scan.middle!.unkeyedHits).toBeGreaterThan(scan.middle!.hits * 0.5);
    });

    it(`${name}: keeps every marker, a rare needle's line, the failing step's first hits and the hits nearest the end`, () => {
      for (const m of sampledTruth.filter((l) => l.n > 40 && /^##\[(?:error\]|group\]Run )/.test(l.text))) expect(kept.get(m.n)).toBe(m.text);
      expect(scan.lines.some((l) => l.text === (name === 'file' ? traceback : exception).trimEnd())).toBe(true);
      const start = sampledTruth.find((l) => l.text === '##[group]Run npm run ci:test')!;
      for (const h of sampledTruth.filter((l) => l.n >= start.n && NEEDLE.test(l.text)).slice(0, sampled.stepHits)) expect(kept.get(h.n), `hit ${h.n}`).toBe(h.text);
      const recent = sampledTruth.filter((l) => l.n < tailStart && l.n > 40 && NEEDLE.test(l.text)).slice(-sampled.recentHits);
      for (const h of recent) expect(kept.get(h.n), `recent ${h.n}`).toBe(h.text);
      expect(findFailingStep(scan.lines, scan.sections, scan.totalLines).failing?.name).toBe('npm run ci:test');
    });
  }
});

describe('a sampled stream that meets a line too long for ripgrep', async () => {
  // Past the exact hits, a 40 KB line (real passing-test lines run together) arrives in 9,973-byte chunks:
  // the sampling stops, the rest is scanned line by line, the long line cut, every number still right.
  const long = passing.join(' ').repeat(Math.ceil((40 << 10) / passing.join(' ').length));
  const at = lines.findIndex((l, i) => i > 2500 && l.includes('✓'));
  const text = [...lines.slice(0, at), stamp(long), ...lines.slice(at)].join('\n') + '\n';
  const truth = cleanText(text);
  const bytes = Buffer.from(text);
  const chunks = Array.from({ length: Math.ceil(bytes.length / 9973) }, (_, i) => bytes.subarray(i * 9973, (i + 1) * 9973));
  const sampled: MiddleBounds = { ...bounds, exactHits: 60, sampleEvery: 16 * 1024, sampleWindow: 2 * 1024 };
  const scan = await readLog(Readable.from(chunks), sampled);

  it('numbers every kept line right, cuts the long one, and still finds the failing step', () => {
    expect(scan.totalLines).toBe(truth.length);
    for (const l of scan.lines) {
      const cut = / … \[line cut at \d+ bytes\]$/.exec(l.text);
      if (cut) expect(truth[l.n - 1]!.text.startsWith(l.text.slice(0, cut.index)), `line ${l.n}`).toBe(true);
      else expect(l.text, `line ${l.n}`).toBe(truth[l.n - 1]!.text);
    }
    expect(scan.middle!.hitsEstimated).toBe(true);
    expect(scan.middle!.hits).toBe(scan.middle!.keptHits + scan.middle!.droppedHits);
    expect(findFailingStep(scan.lines, scan.sections, scan.totalLines).failing?.name).toBe('npm run ci:test');
  });
});

describe('bad input in these shapes stays bounded and clear', () => {
  it('a truncated gzip of the dense log gives what it held, capped, no throw', async () => {
    const gz = gzipSync(Buffer.from(text));
    const path = join(dir, 'truncated.log.gz');
    writeFileSync(path, gz.subarray(0, Math.floor(gz.length * 0.6)));
    const scan = await readLog(path, bounds);
    expect(scan.capped).toBe(true);
    expect(scan.totalLines).toBeGreaterThan(1000);
    expect(scan.totalLines).toBeLessThan(truth.length);
    for (const l of scan.lines.slice(0, -1)) expect(l.text).toBe(truth[l.n - 1]!.text);
    expect(scan.middle!.hits).toBe(scan.middle!.keptHits + scan.middle!.droppedHits);
  });

  it('a gzip bomb (inflating 50x and more, past MAX_LOG_BYTES) stops at the cap with a bounded middle', async () => {
    // The dense stretch without timestamps, as a pasted log has it: ~1000:1.
    const plain = lines.slice(0, 600).join('\n') + '\n' + passing.join('\n').concat('\n').repeat(40_000);
    const bomb = gzipSync(Buffer.from(plain), { level: 9 });
    expect(bomb.length).toBeLessThan(plain.length / 50);
    expect(plain.length).toBeGreaterThan(4 * 2 * 1024 * 1024);
    const state = { capped: false };
    const scan = await scanLog(openLog(Readable.from([bomb]), state), state, bounds);
    expect(scan.capped).toBe(true);
    expect(scan.bytes).toBe(2 * 1024 * 1024);
    const middle = scan.lines.filter((l) => l.n > 40 && l.n < scan.totalLines - 100);
    expect(middle.length).toBeLessThanOrEqual(bounds.maxLines);
  });

  for (const [name, bad] of [
    ['invalid UTF-8', Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xe2, 0x82])],
    ['NUL bytes', Buffer.from([0, 0, 0x65, 0, 0x72])],
  ] as const) {
    it(`${name} inside the dense lines: decoded, cleaned, bounded, on both paths`, async () => {
      // Every 7th line carries the bad bytes, the rare line too.
      const dirty = Buffer.concat(lines.map((l, i) => Buffer.concat([Buffer.from(l), i % 7 === 0 || l.endsWith(rare) ? bad : Buffer.alloc(0), Buffer.from('\n')])));
      const path = join(dir, `${name.replace(/\W/g, '')}.log`);
      writeFileSync(path, dirty);
      const want = cleanText(dirty.toString('utf8'));
      for (const scan of [await readLog(path, bounds), await readLog(Readable.from([dirty]), bounds)]) {
        expect(scan.totalLines).toBe(want.length);
        for (const l of scan.lines) {
          expect(l.text).toBe(want[l.n - 1]!.text);
          expect(l.text).not.toMatch(/[\x00-\x08\x0b\x0c\x0e-\x1f]/);
        }
        expect(scan.lines.some((l) => l.text.startsWith(rare))).toBe(true);
        expect(scan.lines.filter((l) => l.n > 40).length).toBeLessThanOrEqual(bounds.maxLines + 1000);
        expect(findFailingStep(scan.lines, scan.sections, scan.totalLines).failing?.name).toBe('npm run ci:test');
      }
    });
  }

  it('a single line far past MAX_LOG_LINE_BYTES in the middle is cut, the rest numbered right', async () => {
    const huge = lines.slice(0, 60).join('\n') + '\n' + stamp(passing.join(' ').repeat(400)) + '\n' + lines.slice(60).join('\n') + '\n';
    const path = join(dir, 'one-long-line.log');
    writeFileSync(path, huge);
    for (const scan of [await readLog(path, bounds), await readLog(Readable.from([Buffer.from(huge)]), bounds)]) {
      expect(scan.totalLines).toBe(lines.length + 1);
      const long = scan.lines.find((l) => l.n === 61);
      if (long) expect(long.text).toMatch(/\[line cut at 16384 bytes\]$/);
      expect(findFailingStep(scan.lines, scan.sections, scan.totalLines).failing?.name).toBe('npm run ci:test');
    }
  });
});

describe('a big file whose tail read holds no error-looking line', () => {
  // The file path numbers its tail from ripgrep's first hit there (or the sampled middle's count); with
  // none there it counts the lines with `wc -l`. Real quiet lines: the coverage upload's, repeated.
  const quiet = Array.from({ length: 600 }, (_, i) => stamp(`[${i}] Uploading coverage report`));
  const body = [...lines.slice(0, -60), ...quiet];
  for (const [name, text] of [
    ['with a last newline', body.join('\n') + '\n'],
    ['without one', body.join('\n')],
  ] as const) {
    it(`${name}: the same lines and numbers as the stream path`, async () => {
      const path = join(dir, `quiet-tail-${name.length}.log`);
      writeFileSync(path, text);
      const truthQuiet = cleanText(text);
      for (const scan of [await readLog(path, bounds), await readLog(Readable.from([Buffer.from(text)]), bounds)]) {
        expect(scan.totalLines).toBe(truthQuiet.length);
        expect(scan.lines.at(-1)!.n).toBe(truthQuiet.length);
        for (const l of scan.lines) expect(l.text, `line ${l.n}`).toBe(truthQuiet[l.n - 1]!.text);
      }
    });
  }
});

describe('a big file whose tail read starts exactly at a hit line', () => {
  // The tail read (TAIL_BYTES + MIDDLE_RECENT_BYTES from the end, 18 KB here) drops its first line as
  // partial; here that line is whole and is ripgrep's first hit there, the line the tail is numbered from.
  it('numbers every kept line right', async () => {
    const head = lines.slice(0, -60).join('\n') + '\n';
    const hit = stamp(rare) + '\n';
    let rest = '';
    for (let i = 0; Buffer.byteLength(hit + rest) < 18 * 1024 - 200; i++) rest += stamp(`[${i}] Uploading coverage report`) + '\n';
    // Trailing spaces (cleaned away) bring the tail to exactly 18 KB.
    rest += stamp('[done] Uploading coverage report').padEnd(18 * 1024 - Buffer.byteLength(hit + rest) - 1, ' ') + '\n';
    const text = head + hit + rest;
    expect(Buffer.byteLength(hit + rest)).toBe(18 * 1024);
    const path = join(dir, 'tail-at-hit.log');
    writeFileSync(path, text);
    const truthHere = cleanText(text);
    const scan = await readLog(path, bounds);
    expect(scan.totalLines).toBe(truthHere.length);
    for (const l of scan.lines) expect(l.text, `line ${l.n}`).toBe(truthHere[l.n - 1]!.text);
  });
});
