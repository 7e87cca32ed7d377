import { closeSync, openSync, readSync } from 'node:fs';
import { resolve } from 'node:path';
import { setImmediate as yieldNow } from 'node:timers/promises';
import { LogReadError } from '../errors.js';
import { HEAD_LINES, MAX_LOG_LINE_BYTES, MIDDLE_SAMPLE_EVERY, MIDDLE_SAMPLE_WINDOW, MIDDLE_STEP_SCAN_BYTES, MIDDLE_TARGETED_LINES, MIDDLE_TARGETED_TEXT_BYTES } from '../limits.js';
import { spawnBoundedRg } from './bounded-rg.js';
import { findHits, hitMarker } from './hit-finder.js';
import { LineCounter } from './line-counter.js';
import type { KeySampler, MiddleHits } from './middle-hits.js';
import type { RawTemplateKeys } from '../evidence/templates.js';

/** Step and error markers (hit-finder.ts hitMarker): each one is searched for in the whole sampled middle. */
export const MARKER_LITERALS = ['##[group]Run ', '##[error]', 'section_start:', 'ERROR: Job failed'];

/** Where the sampled stretch of the middle lies. */
export interface DenseStretch {
  path: string;
  /** Byte offset of the first line after the exact hits, and its line number. */
  from: number;
  fromLine: number;
  /** Lines starting at or past this offset belong to the tail read. */
  to: number;
}

/** The ripgrep pass over the whole file a sampled middle needs, started as soon as the exact hits are spent. */
export interface DenseSearches {
  /** Every marker line and every line with a rare needle (needles rare among the exact hits) in the file. */
  targeted: Promise<Targeted[]>;
  rareNeedles: readonly string[];
}

/** Starts the pass (ripgrep reads the file itself, its memory capped: a long line fails it, see bounded-rg.ts). */
export function startDenseSearches(path: string, rareNeedles: readonly string[]): DenseSearches {
  // It prints little and costs about a quarter of a ripgrep count of the file; it runs beside the exact hits' pass.
  const targeted = findTargeted({ path, rareNeedles });
  targeted.catch(() => {});
  return { targeted, rareNeedles };
}

/** One targeted line as ripgrep printed it: its start, its number and (within MIDDLE_TARGETED_TEXT_BYTES) its bytes. */
export interface Targeted {
  at: number;
  n: number;
  line: Buffer | null;
}

/** What the sampling offered, and the hits it estimates the stretch holds. */
export interface DenseSample {
  offered: number;
  /**
   * Hits in the stretch, estimated from the windows' density: counting them exactly costs a ripgrep
   * count of the whole file (~1.6 s of CPU on a 1 GB log saying "error" on every line), more than the
   * rest of the scan. The note says so (MiddleNote.hitsEstimated).
   */
  estimatedHits: number;
  /** The number of the line holding the stretch's end (`to`): the tail read is numbered from it. */
  linesTo?: number;
}

/**
 * The rest of a big file's middle once the exact hits are spent (a log saying "error" on every line):
 * every step and error marker and every line holding a needle that was rare so far (one ripgrep pass that
 * prints little), each step's first hits (read after its marker), and every hit in one window of
 * `sampleWindow` bytes every `sampleEvery` bytes are offered to the bounded middle in log order. Only the
 * windows, the steps' first bytes and the targeted lines are read; a LineCounter numbers them (the one
 * reader of the whole stretch, at memchr-like speed). The hits between windows are never read: their
 * number is estimated from the windows.
 */
export async function sampleDenseMiddle(s: DenseStretch, searches: DenseSearches, middle: MiddleHits, keys: RawTemplateKeys, sampler: KeySampler): Promise<DenseSample> {
  const every = middle.bounds.sampleEvery ?? MIDDLE_SAMPLE_EVERY;
  const win = middle.bounds.sampleWindow ?? MIDDLE_SAMPLE_WINDOW;
  const stepHits = middle.bounds.stepHits;
  const fd = openSync(s.path, 'r');
  try {
    const counter = new LineCounter(fd, s.from, s.fromLine);
    // Count the stretch's lines while ripgrep's targeted pass runs (two cores: they overlap).
    const linesTo = await counter.index(s.to);
    const targeted = (await searches.targeted).filter((t) => t.at >= s.from && t.at < s.to);
    // Each buffer reused: nothing read is held past its use (kept hits are re-read at their offsets).
    const winBuf = Buffer.allocUnsafe(win + MAX_LOG_LINE_BYTES + 1);
    const lineBuf = Buffer.allocUnsafe(MAX_LOG_LINE_BYTES + 1);
    const stepBuf = Buffer.allocUnsafe(MIDDLE_STEP_SCAN_BYTES + MAX_LOG_LINE_BYTES + 1);
    let offered = 0;
    let windowHits = 0;
    let windowBytes = 0;
    // The current window: its hits' line starts (offsets in winBuf), read from winAt.
    let nextWin = s.from;
    let winAt = 0;
    let winLen = 0;
    let winHits: number[] = [];
    let wi = 0;
    // The current step's first hits (copies of their lines), and the targeted lines.
    let stepQ: { at: number; line: Buffer }[] = [];
    let si = 0;
    let ti = 0;

    const loadWindow = (): boolean => {
      while (nextWin < s.to) {
        const w = nextWin;
        nextWin += every;
        const got = readSync(fd, winBuf, 0, winBuf.length, w);
        if (got <= 0) return false;
        // Lines starting in [w, w + win) and before the tail read; the partial first line is not one.
        let first = 0;
        if (w !== s.from) {
          const nl = winBuf.indexOf(10);
          if (nl === -1 || nl >= got) continue; // a line longer than the window holds no sample
          first = nl + 1;
        }
        const stop = Math.min(got, win, s.to - w);
        if (first >= stop) continue;
        winHits = findHits(winBuf, first, stop, Infinity);
        wi = 0;
        winAt = w;
        winLen = got;
        windowHits += winHits.length;
        windowBytes += stop - first;
        return true;
      }
      return false;
    };
    const stepScan = (from: number): void => {
      stepQ = [];
      si = 0;
      if (from >= s.to) return;
      const got = readSync(fd, stepBuf, 0, stepBuf.length, from);
      const stop = Math.min(got, MIDDLE_STEP_SCAN_BYTES, s.to - from);
      for (const st of findHits(stepBuf, 0, stop, stepHits)) {
        let e = stepBuf.indexOf(10, st);
        if (e === -1 || e >= got) e = got;
        stepQ.push({ at: from + st, line: Buffer.from(stepBuf.subarray(st, Math.min(e, st + MAX_LOG_LINE_BYTES))) });
      }
    };
    // `known`: the line's number when ripgrep printed it (a targeted line), else it is counted.
    const offer = (at: number, buf: Buffer, start: number, end: number, known?: number): void => {
      const n = known ?? counter.lineAt(at);
      const marker = hitMarker(buf, start, end);
      offered++;
      if (n <= HEAD_LINES) middle.mark(marker);
      else {
        const hit = middle.offer(n, sampler.take(at) ? keys.keyOf(buf, start, end) : null, marker);
        if (hit) hit.at = at;
      }
      // This step's first hits, from the line after its marker (they replace the last step's).
      if (marker === 'step' && stepHits > 0) stepScan(at + (end - start) + 1);
    };

    let haveWin = loadWindow();
    let last = -1;
    for (let k = 1; ; k++) {
      while (haveWin && wi >= winHits.length) haveWin = loadWindow();
      const tAt = ti < targeted.length ? targeted[ti]!.at : Infinity;
      const sAt = si < stepQ.length ? stepQ[si]!.at : Infinity;
      const wAt = haveWin ? winAt + winHits[wi]! : Infinity;
      const at = Math.min(tAt, sAt, wAt);
      if (at === Infinity) break;
      // The same line from several sources is offered once, with the bytes at hand.
      if (at === tAt) ti++;
      if (at === sAt) si++;
      if (at === wAt) wi++;
      if (at <= last) continue;
      last = at;
      if (at === wAt) {
        const st = winHits[wi - 1]!;
        let e = winBuf.indexOf(10, st);
        if (e === -1 || e >= winLen) e = winLen;
        offer(at, winBuf, st, e);
      } else if (at === sAt) {
        const line = stepQ[si - 1]!.line;
        offer(at, line, 0, line.length);
      } else {
        // ripgrep numbered the targeted line and printed it: neither counted nor read here (past
        // MIDDLE_TARGETED_TEXT_BYTES of them, or a line it cut, the line is read at its offset).
        const t = targeted[ti - 1]!;
        if (t.line) offer(at, t.line, 0, t.line.length, t.n);
        else {
          const got = readSync(fd, lineBuf, 0, lineBuf.length, at);
          let e = lineBuf.indexOf(10);
          if (e === -1 || e >= got) e = Math.max(0, got);
          offer(at, lineBuf, 0, e, t.n);
        }
      }
      // Synchronous reads of a cached file are fast; still, let other work (the App's requests) in.
      if (k % YIELD_EVERY === 0) await yieldNow();
    }
    const estimatedHits = windowBytes > 0 ? Math.round((windowHits * (s.to - s.from)) / windowBytes) : offered;
    return { offered, estimatedHits, linesTo };
  } finally {
    closeSync(fd);
  }
}

/** Offers between yields to the event loop (each is a few µs). */
const YIELD_EVERY = 4096;

/** ripgrep's stand-in for a line longer than --max-columns: such a line is read from the file instead. */
const OMITTED = Buffer.from('[Omitted long line');

/**
 * Every marker line and every line with a rare needle in the file: ripgrep numbers them (its line count
 * is SIMD; counting them here was a second pass over the stretch) and prints them, so none is read again.
 * Their bytes are kept up to MIDDLE_TARGETED_TEXT_BYTES; past it only offsets and numbers.
 */
async function findTargeted(s: { path: string; rareNeedles: readonly string[] }): Promise<Targeted[]> {
  const lits = [...MARKER_LITERALS, ...s.rareNeedles];
  const out: Targeted[] = [];
  let carry: Buffer | null = null;
  let held = 0;
  let full = false;
  const rg = spawnBoundedRg(['--text', '--no-mmap', '--byte-offset', '--line-number', '--no-filename', '--color=never', '--fixed-strings', `--max-columns=${MAX_LOG_LINE_BYTES}`, ...lits.flatMap((l) => ['-e', l]), '--', resolve(s.path)], {
    onChunk(d) {
      if (full) return;
      const buf: Buffer = carry ? Buffer.concat([carry, d]) : d;
      let st = 0;
      for (let e = buf.indexOf(10); e !== -1; st = e + 1, e = buf.indexOf(10, st)) {
        // `<line>:<offset>:<text>`
        let i = st;
        let n = 0;
        for (let c = buf[i]!; c >= 0x30 && c <= 0x39; c = buf[++i]!) n = n * 10 + (c - 0x30);
        let at = 0;
        for (let c = buf[++i]!; c >= 0x30 && c <= 0x39; c = buf[++i]!) at = at * 10 + (c - 0x30);
        const t = Math.min(i + 1, e);
        const cut = e - t >= OMITTED.length && buf.compare(OMITTED, 0, OMITTED.length, t, t + OMITTED.length) === 0;
        const keep = !cut && held + (e - t) <= MIDDLE_TARGETED_TEXT_BYTES;
        if (keep) held += e - t;
        out.push({ at, n, line: keep ? Buffer.from(buf.subarray(t, e)) : null });
        if (out.length >= MIDDLE_TARGETED_LINES) {
          full = true;
          rg.kill();
          return;
        }
      }
      // A partial record waits for the next chunk (records are at most --max-columns long).
      carry = st < buf.length ? Buffer.from(buf.subarray(st)) : null;
    },
  });
  const r = await rg.done;
  if (!full && r.code === 2) throw new LogReadError(s.path, `could not search the log: ${r.stderr.trim().split('\n')[0]}`);
  return out;
}
