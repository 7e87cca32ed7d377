import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LogReadError } from '../errors.js';
import { HEAD_LINES, MIDDLE_SAMPLE_EVERY, MIDDLE_SAMPLE_WINDOW, MIDDLE_STEP_SCAN_BYTES, READ_CHUNK_BYTES } from '../limits.js';
import { spawnBoundedRg } from './bounded-rg.js';
import { FILE_NEEDLE_BUFFERS as NEEDLE_BUFS, FILE_NEEDLES, findHits, hitMarker } from './hit-finder.js';
import type { KeySampler, MiddleHits } from './middle-hits.js';
import type { RawTemplateKeys } from '../evidence/templates.js';

/** Step and error markers (hit-finder.ts hitMarker): each one is searched for in the whole sampled middle. */
const MARKER_LITERALS = ['##[group]Run ', '##[error]', 'section_start:', 'ERROR: Job failed'];

/** Where the sampled stretch of the middle lies. */
export interface DenseStretch {
  path: string;
  /** Byte offset of the first line after the exact hits, and its line number. */
  from: number;
  fromLine: number;
  /** Lines starting at or past this offset belong to the tail read. */
  to: number;
}

/** The two ripgrep passes over the whole file a sampled middle needs, started as soon as the exact hits are spent. */
export interface DenseSearches {
  /** Line starts of every marker line and every line with a rare needle (needles rare among the exact hits) in the file. */
  targeted: Promise<number[]>;
  /** Lines with a needle in the whole file (`rg -c`). */
  total: Promise<number>;
  rareNeedles: readonly string[];
}

/** Starts the passes (ripgrep reads the file itself, its memory capped: a long line fails it, see bounded-rg.ts). */
export function startDenseSearches(path: string, rareNeedles: readonly string[]): DenseSearches {
  const s = { path, rareNeedles };
  // Each pass costs about one ripgrep count of the file; they run beside the JavaScript read.
  let out = '';
  const counter = spawnBoundedRg(['--text', '--no-mmap', '-c', '--fixed-strings', ...FILE_NEEDLES.flatMap((n) => ['-e', n]), '--', resolve(s.path)], { onChunk: (d) => (out += d.toString()) });
  const total = counter.done.then((r) => {
    if (r.code === 2) throw new LogReadError(s.path, `could not count the log's hits: ${r.stderr.trim().split('\n')[0]}`);
    return r.code === 1 ? 0 : Number(out.trim() || 0);
  });
  total.catch(() => {});
  const targeted = findTargeted(s);
  targeted.catch(() => {});
  return { targeted, total, rareNeedles };
}

/**
 * The rest of a big file's middle once the exact hits are spent (a log saying "error" on every line):
 * every step and error marker and every line holding a needle that was rare so far (one ripgrep pass that
 * prints little), each step's first hits (read after its marker), and every hit in one window of
 * `sampleWindow` bytes every `sampleEvery` bytes are offered to the bounded middle in log order. The hits
 * between windows are never read; `rg -c` counts them (DenseSearches.total). One read of the stretch
 * numbers the lines. Returns how many hits were offered.
 */
export async function sampleDenseMiddle(s: DenseStretch, searches: DenseSearches, middle: MiddleHits, keys: RawTemplateKeys, sampler: KeySampler): Promise<number> {
  const every = middle.bounds.sampleEvery ?? MIDDLE_SAMPLE_EVERY;
  const win = middle.bounds.sampleWindow ?? MIDDLE_SAMPLE_WINDOW;
  const stepHits = middle.bounds.stepHits;
  const targeted = (await searches.targeted).filter((at) => at >= s.from && at < s.to);
  // The windows look for the common needles only: every line with a rare one is targeted already.
  const common = NEEDLE_BUFS.filter((_, k) => !searches.rareNeedles.includes(FILE_NEEDLES[k]!));
  const fh = await open(s.path, 'r');
  let offered = 0;
  try {
    let pos = s.from;
    let n = s.fromLine; // the number of the line starting at `pos`
    let inLong = false;
    let ti = 0;
    let stepLeft = 0;
    let stepEnd = 0;
    // One buffer, reused: nothing read is held past its chunk (kept hits are re-read at their offsets).
    const buf = Buffer.allocUnsafe(READ_CHUNK_BYTES);
    while (pos < s.to) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead <= 0) break;
      let last = buf.lastIndexOf(10, bytesRead - 1);
      if (last === -1) {
        // A line longer than a chunk holds no sample.
        inLong = true;
        pos += bytesRead;
        continue;
      }
      // Only lines starting before `to`; the line through `to` ends the stretch.
      if (pos + last + 1 > s.to) last = buf.indexOf(10, Math.max(0, s.to - pos - 1));
      const body = buf.subarray(0, last + 1);
      let first = 0;
      if (inLong) {
        // The end of the long line: not a line start, not searched.
        first = body.indexOf(10) + 1;
        n++;
        inLong = false;
      }
      // Candidates in this chunk: targeted lines (markers, rare needles), window hits, a step's first hits.
      const cand: number[] = [];
      for (; ti < targeted.length && targeted[ti]! < pos + body.length; ti++) if (targeted[ti]! >= pos + first) cand.push(targeted[ti]! - pos);
      for (let w = Math.ceil((pos + first) / every) * every; w < pos + body.length; w += every) {
        for (const h of findHits(body, w - pos, Math.min(body.length, w - pos + win), Infinity, common)) cand.push(h);
      }
      if (stepLeft > 0) {
        const got = findHits(body, first, Math.min(body.length, stepEnd - pos), stepLeft);
        stepLeft -= got.length;
        cand.push(...got);
        if (stepEnd <= pos + body.length) stepLeft = 0;
      }
      cand.sort((a, b) => a - b);
      while (cand.length && cand[0]! < first) cand.shift();
      // Number the candidates in one walk over the newlines, offering each in log order.
      let p = first;
      for (let i = 0; i < cand.length; i++) {
        const start = cand[i]!;
        if (i > 0 && start === cand[i - 1]) continue;
        for (let q = body.indexOf(10, p); q !== -1 && q < start; q = body.indexOf(10, q + 1)) n++, (p = q + 1);
        p = start;
        const end = body.indexOf(10, start);
        const marker = hitMarker(body, start, end);
        offered++;
        if (n <= HEAD_LINES) middle.mark(marker);
        else {
          const hit = middle.offer(n, sampler.take(pos + start) ? keys.keyOf(body, start, end) : null, marker);
          if (hit) hit.at = pos + start;
        }
        if (marker === 'step' && stepHits > 0) {
          // This step's first hits, from the line after its marker.
          stepEnd = pos + end + 1 + MIDDLE_STEP_SCAN_BYTES;
          const got = findHits(body, end + 1, Math.min(body.length, stepEnd - pos), stepHits);
          stepLeft = stepEnd > pos + body.length ? stepHits - got.length : 0;
          const rest = cand.slice(i + 1).concat(got).sort((a, b) => a - b);
          cand.length = i + 1;
          cand.push(...rest);
        }
      }
      for (let q = body.indexOf(10, p); q !== -1; q = body.indexOf(10, q + 1)) n++;
      pos += body.length;
    }
  } finally {
    await fh.close();
  }
  return offered;
}

/** Byte offsets (line starts) of every marker line and every line with a rare needle in the stretch: ripgrep, printing little. */
/** Lines holding a needle in `bytes` (ripgrep reading them from us): the count of a window already in memory. */
export async function countHits(bytes: Buffer): Promise<number> {
  let out = '';
  const rg = spawnBoundedRg(['--text', '-c', '--fixed-strings', ...FILE_NEEDLES.flatMap((n) => ['-e', n]), '-'], { stdin: true, onChunk: (d) => (out += d.toString()) });
  rg.stdin!.end(bytes);
  const r = await rg.done;
  return r.code === 0 ? Number(out.trim() || 0) : 0;
}

async function findTargeted(s: { path: string; rareNeedles: readonly string[] }): Promise<number[]> {
  const lits = [...MARKER_LITERALS, ...s.rareNeedles];
  const out: number[] = [];
  let carry = '';
  const rg = spawnBoundedRg(['--text', '--no-mmap', '--byte-offset', '--no-line-number', '--no-filename', '--color=never', '--fixed-strings', '--max-columns=1', ...lits.flatMap((l) => ['-e', l]), '--', resolve(s.path)], {
    onChunk(d) {
      const text = carry + d.toString('latin1');
      const lines = text.split('\n');
      carry = lines.pop()!;
      for (const l of lines) {
        out.push(Number(l.slice(0, l.indexOf(':'))));
      }
    },
  });
  const r = await rg.done;
  if (r.code === 2) throw new LogReadError(s.path, `could not search the log: ${r.stderr.trim().split('\n')[0]}`);
  return out;
}
