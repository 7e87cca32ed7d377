import type { HitMarker } from './middle-hits.js';
import { afterActionsTimestamp } from '../evidence/templates.js';

/**
 * Bytes that make a line of a huge log's middle worth a look. They are searched in the raw bytes before
 * anything is decoded (ripgrep's literal prefilter, in spirit). Needles whose first byte is rare are
 * cheap; each common-first-byte needle costs a full pass (measured: 'panic', 'ailed', 'section_' cost
 * 0.6 s per GB each), so the list stays short; the tail window catches the rest.
 */
const NEEDLE_TEXT = ['rror', 'RROR', 'FAIL', '##[', 'xception', 'Killed', 'fatal'];
const NEEDLES = NEEDLE_TEXT.map((s) => Buffer.from(s));

/**
 * The next needle at or after a position in one buffer. Each needle's next occurrence is remembered, so
 * a line full of one needle costs one search for it and none for the others. The search runs on the
 * Buffer itself: decoding each chunk to a latin1 string first (V8's string search costs ~58 ns a call
 * against Buffer.indexOf's ~118) cost more than it saved — measured ~0.7 s per GB for the decode and its
 * GC, while the needle passes cost the same per byte either way — and a dense stretch only calls this
 * per line for its first MIDDLE_EXACT_HITS hits before the stream is sampled.
 */
export class HitFinder {
  private buf: Buffer = Buffer.alloc(0);
  private readonly at = new Float64Array(NEEDLES.length);

  reset(buf: Buffer): void {
    this.buf = buf;
    this.at.fill(-1);
  }

  /** Offset of the first needle at or after `from`; the buffer's length when there is none. */
  next(from: number): number {
    let min = this.buf.length;
    for (let k = 0; k < NEEDLES.length; k++) {
      let a = this.at[k]!;
      if (a < from) {
        const i = this.buf.indexOf(NEEDLES[k]!, from);
        a = this.at[k] = i === -1 ? Infinity : i;
      }
      if (a < min) min = a;
    }
    return min;
  }
}

/** Whether buf[start, end) holds a needle. */
export function hasNeedle(buf: Buffer, start: number, end: number): boolean {
  const b = buf.subarray(start, end);
  return NEEDLES.some((nd) => b.indexOf(nd) !== -1);
}

/**
 * Error-looking literals for the middle of a big log file. ripgrep searches them all at once at memory
 * speed (its literal prefilter), so the list can be generous; the head and the tail are kept regardless.
 */
export const FILE_NEEDLES = ['rror', 'RROR', 'FAIL', 'Fail', 'ailed', '##[', 'xception', 'Killed', 'fatal', 'FATAL', 'panic', 'Traceback', 'section_', 'travis_fold', 'not ok', '✕', '✖', 'Cannot find'];

export const FILE_NEEDLE_BUFFERS = FILE_NEEDLES.map((s) => Buffer.from(s));
/** The stream path's needles as bytes (the list HitFinder searches). */
export const STREAM_NEEDLE_BUFFERS: readonly Buffer[] = NEEDLES;
/** The stream path's needles as text (the sampled stream searches the rare ones through ripgrep). */
export const STREAM_NEEDLES: readonly string[] = NEEDLE_TEXT;

/**
 * Line starts of the lines in buf[from, to) holding a needle (at most `max`), in order; a line is named once.
 * The needle that found the last hit is searched first; the others only before the line it finds next
 * (a needle never spans a newline, so one starting before that line ends before it): in a dense stretch,
 * where one needle is on every line, the others search the gaps between hit lines, not the whole
 * buffer each (18 passes over each 32 KB sample window were most of the sampled middle's search).
 */
export function findHits(buf: Buffer, from: number, to: number, max: number, needles: readonly Buffer[] = FILE_NEEDLE_BUFFERS): number[] {
  const out: number[] = [];
  if (from >= to) return out;
  const s = buf.subarray(from, to);
  const len = s.length;
  // next[k]: needle k's next occurrence at or after clear[k] once found (Infinity: none to the end);
  // -1 while unknown, and then it has none in [.., clear[k]).
  const next = new Float64Array(needles.length).fill(-1);
  const clear = new Float64Array(needles.length);
  const search = (k: number, p: number, bound: number): number => {
    let a = next[k]!;
    if (a >= p) return a;
    const at = Math.max(p, clear[k]!);
    if (at >= bound) return Infinity;
    const i = bound >= len ? s.indexOf(needles[k]!, at) : s.subarray(0, bound).indexOf(needles[k]!, at);
    if (i === -1) {
      clear[k] = bound;
      if (bound >= len) next[k] = Infinity;
      return Infinity;
    }
    next[k] = a = i;
    return a;
  };
  let lead = 0;
  let p = 0;
  while (out.length < max) {
    let h = search(lead, p, len);
    let by = lead;
    let bound = h === Infinity ? len : s.lastIndexOf(10, h) + 1;
    for (let k = 0; k < needles.length; k++) {
      if (k === lead) continue;
      const a = search(k, p, bound);
      if (a < h) {
        h = a;
        by = k;
        bound = s.lastIndexOf(10, h) + 1;
      }
    }
    if (h === Infinity) break;
    lead = by;
    const abs = from + h;
    const start = abs === 0 ? 0 : buf.lastIndexOf(10, abs - 1) + 1;
    // A window's first hit may sit on a line that starts before the window: still that line.
    out.push(start);
    const end = buf.indexOf(10, abs);
    if (end === -1) break;
    p = end + 1 - from;
  }
  return out;
}

const STEP = Buffer.from('##[group]Run ');
const ERROR = Buffer.from('##[error]');
const GITLAB_START = Buffer.from('section_start:');
const GITLAB_FAILED = Buffer.from('ERROR: Job failed');

/**
 * What a hit line is to the step structure, from its raw bytes: an Actions step start or a GitLab
 * section start ('step'), a runner error ('error'), or nothing.
 */
export function hitMarker(buf: Buffer, start: number, end: number): HitMarker {
  const i = afterActionsTimestamp(buf, start, end);
  const c = buf[i];
  if (c === 0x23 /* # */) {
    if (startsWith(buf, i, end, STEP)) return 'step';
    if (startsWith(buf, i, end, ERROR)) return 'error';
  } else if (c === 0x45 /* E */) {
    if (startsWith(buf, i, end, GITLAB_FAILED)) return 'error';
  } else if (c === 0x73 /* s */) {
    if (startsWith(buf, i, end, GITLAB_START)) return 'step';
  } else if (c === 0x1b) {
    // GitLab hides the marker behind `\x1b[0K`.
    if (startsWith(buf, i + 4, end, GITLAB_START)) return 'step';
  }
  return undefined;
}

/** A byte loop: Buffer.compare's argument checks cost ~0.3 µs a call, and this runs on every hit line. */
function startsWith(buf: Buffer, i: number, end: number, what: Buffer): boolean {
  if (end - i < what.length) return false;
  for (let k = 0; k < what.length; k++) if (buf[i + k] !== what[k]) return false;
  return true;
}
