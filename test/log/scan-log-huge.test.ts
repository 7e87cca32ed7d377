import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { scanLog, type LogScan } from '../../src/log/scan-log.js';
import { cleanText } from '../../src/log/clean.js';
import { findFailingStep } from '../../src/log/find-failing-step.js';
import { FULL_KEEP_BYTES, HEAD_LINES, HIT_CONTEXT_AFTER, HIT_CONTEXT_BEFORE, MAX_MIDDLE_LINES, MIDDLE_MARKER_HITS, READ_CHUNK_BYTES, TAIL_BYTES, TAIL_LINES } from '../../src/limits.js';

/**
 * Huge mode: a real Actions log concatenated past FULL_KEEP_BYTES. The scan keeps the head, the tail and
 * the error-looking lines of the middle with context; every kept line must carry the number and text
 * cleanText gives the same content, and the failing step must still be found.
 */
const base = readFileSync(new URL('../../fixtures/real-logs/python-2468864400-orig.log', import.meta.url), 'utf8').replace(/\n?$/, '\n');
const copies = Math.ceil((FULL_KEEP_BYTES + 3 * 1024 * 1024) / Buffer.byteLength(base));
const perCopy = base.split('\n').length - 1;

let big: Buffer;
let expected: { n: number; text: string }[];
let scan: LogScan;

beforeAll(async () => {
  big = Buffer.from(base.repeat(copies));
  expected = cleanText(big.toString('utf8'));
  // Chunks a little bigger than the reader's, so their borders fall mid-line.
  const size = READ_CHUNK_BYTES + 12_345;
  async function* chunks() {
    for (let i = 0; i < big.length; i += size) yield big.subarray(i, i + size);
  }
  scan = await scanLog(chunks());
}, 30_000);

describe('scanLog huge mode (a real log concatenated past FULL_KEEP_BYTES)', () => {
  it('counts every byte and line, and says it kept only part', () => {
    expect(big.length).toBeGreaterThan(FULL_KEEP_BYTES);
    expect(scan.bytes).toBe(big.length);
    expect(scan.totalLines).toBe(copies * perCopy);
    expect(scan.totalLines).toBe(expected.length);
    expect(scan.complete).toBe(false);
    expect(scan.capped).toBe(false);
  });

  it('every kept line has the number and text cleanText gives the same content', () => {
    let prev = 0;
    for (const l of scan.lines) {
      expect(l.n).toBeGreaterThan(prev);
      prev = l.n;
      expect(l).toEqual(expected[l.n - 1]);
    }
  });

  it('keeps the head whole', () => {
    expect(scan.lines.slice(0, HEAD_LINES)).toEqual(expected.slice(0, HEAD_LINES));
  });

  it('keeps the tail window whole and contiguous to the last line', () => {
    const last = scan.lines[scan.lines.length - 1]!;
    expect(last.n).toBe(scan.totalLines);
    // Lines in the last TAIL_BYTES of the file, bounded by TAIL_LINES: all must be there, with no gap.
    let linesInTailBytes = 0;
    for (let i = big.length - 1, seen = 0; i >= 0 && seen < TAIL_BYTES; i--, seen++) if (big[i] === 10) linesInTailBytes++;
    const want = Math.min(TAIL_LINES, linesInTailBytes);
    const tail = scan.lines.slice(-want);
    expect(tail).toEqual(expected.slice(-want));
  });

  it('a middle dense with hits: every step and runner-error marker kept, the rest bounded and counted', () => {
    // 8 MB of this log is more than TAIL_LINES lines: the tail window is exactly the last TAIL_LINES.
    const tailFrom = scan.lines[scan.lines.length - TAIL_LINES]!.n;
    const kept = new Map(scan.lines.map((l) => [l.n, l.text]));
    const markers = expected.filter((l) => l.n > HEAD_LINES && /^##\[(?:error\]|group\]Run )/.test(l.text));
    expect(markers.length).toBeGreaterThan(MIDDLE_MARKER_HITS);
    // 540 copies of a job hold more markers than a real job: the newest MIDDLE_MARKER_HITS stay.
    for (const m of markers.slice(-MIDDLE_MARKER_HITS).filter((l) => l.n < tailFrom)) expect(kept.get(m.n), `marker line ${m.n}`).toBe(m.text);
    // This log hits a needle every few lines: most middle hits are dropped, and counted.
    const note = scan.middle!;
    expect(note.hits).toBe(note.keptHits + note.droppedHits);
    expect(note.droppedHits).toBeGreaterThan(note.keptHits);
    // The hits nearest the end keep their context after them.
    const lastHit = expected.filter((l) => l.n < tailFrom && l.n > tailFrom - 2000 && /rror|RROR|FAIL|##\[|xception|Killed|fatal/.test(l.text)).at(-1)!;
    for (let k = 0; k <= HIT_CONTEXT_AFTER && lastHit.n + k < tailFrom; k++) expect(kept.has(lastHit.n + k), `line ${lastHit.n + k}`).toBe(true);
  });

  it('keeps a bounded number of lines', () => {
    expect(scan.lines.length).toBeLessThanOrEqual(HEAD_LINES + MAX_MIDDLE_LINES * 1.5 + TAIL_LINES);
    expect(scan.lines.length).toBeLessThan(scan.totalLines);
  });

  it('still finds the failing step: the last copy of "Run ./runtests.py"', () => {
    const one = findFailingStep(cleanText(base), [], perCopy);
    expect(one.failing?.name).toBe('./runtests.py');
    const layout = findFailingStep(scan.lines, scan.sections, scan.totalLines);
    expect(layout.format).toBe('github-actions');
    const offset = (copies - 1) * perCopy;
    expect(layout.failing).not.toBeNull();
    expect(layout.failing!.name).toBe('./runtests.py');
    expect(layout.failing!.startLine).toBe(offset + one.failing!.startLine);
    expect(layout.failing!.errorLines).toEqual(one.failing!.errorLines.map((n) => n + offset));
    expect(layout.failing!.exitCode).toBe(1);
  });
});

describe('scanLog huge mode: sparse errors in the middle of a big real log', () => {
  // The same real log with its error-looking lines filtered out, repeated past FULL_KEEP_BYTES, and the
  // real failure block (the traceback, the ##[error] lines) put back at a quarter, half and three quarters.
  const NEEDLE = /rror|RROR|FAIL|##\[|xception|Killed|fatal/;
  const lines = base.split('\n').slice(0, -1);
  const quiet = lines.filter((l) => !NEEDLE.test(l));
  const failure = lines.slice(1030, 1054); // the traceback and both ##[error] lines of the real failure
  const quietCopies = Math.ceil((FULL_KEEP_BYTES + 2 * 1024 * 1024) / Buffer.byteLength(quiet.join('\n') + '\n'));
  let all: string[];
  let sparse: LogScan;
  let want: { n: number; text: string }[];

  beforeAll(async () => {
    all = [];
    for (let c = 0; c < quietCopies; c++) {
      if ([Math.floor(quietCopies / 4), Math.floor(quietCopies / 2), Math.floor((3 * quietCopies) / 4)].includes(c)) all.push(...failure);
      all.push(...quiet);
    }
    const text = all.join('\n') + '\n';
    want = cleanText(text);
    const buf = Buffer.from(text);
    async function* chunks() {
      for (let i = 0; i < buf.length; i += READ_CHUNK_BYTES - 777) yield buf.subarray(i, i + READ_CHUNK_BYTES - 777);
    }
    sparse = await scanLog(chunks());
  }, 30_000);

  it('keeps each middle error with HIT_CONTEXT_BEFORE lines before and HIT_CONTEXT_AFTER after, exactly numbered', () => {
    expect(sparse.complete).toBe(false);
    expect(sparse.totalLines).toBe(want.length);
    const kept = new Map(sparse.lines.map((l) => [l.n, l]));
    const errors = want.filter((l) => l.text.startsWith('##[error]'));
    expect(errors.length).toBe(6);
    for (const e of errors) {
      expect(e.n).toBeGreaterThan(HEAD_LINES);
      for (let k = -HIT_CONTEXT_BEFORE; k <= HIT_CONTEXT_AFTER; k++) expect(kept.get(e.n + k), `line ${e.n + k}`).toEqual(want[e.n + k - 1]);
    }
    for (const l of sparse.lines) expect(l).toEqual(want[l.n - 1]);
    // Quiet stretches of the middle are not kept.
    expect(sparse.lines.length).toBeLessThan(HEAD_LINES + TAIL_LINES + 6 * (HIT_CONTEXT_BEFORE + HIT_CONTEXT_AFTER + 30));
  });

  it('finds the last failure in the middle as the failing step (nothing after it but quiet lines)', () => {
    const layout = findFailingStep(sparse.lines, sparse.sections, sparse.totalLines);
    const lastError = want.filter((l) => l.text.startsWith('##[error]')).at(-1)!;
    expect(layout.failing).not.toBeNull();
    expect(layout.failing!.errorLines.at(-1)).toBe(lastError.n);
    expect(layout.failing!.exitCode).toBe(1);
  });
});
