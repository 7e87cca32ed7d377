import type { LogLine } from '../types.js';
import { RawTemplateKeys } from '../evidence/templates.js';
import { MAX_LOG_LINE_BYTES, TEMPLATE_KEY_CACHE, TEMPLATE_MASK_BUDGET } from '../limits.js';
import { cleanLine } from './clean.js';
import { findHits, HitFinder, STREAM_NEEDLE_BUFFERS } from './hit-finder.js';
import { countNewlines } from './line-counter.js';
import type { MiddleHits } from './middle-hits.js';

/** The first stretch searched backwards for the recent hits (then 4× wider each time): a dense 64 KB holds ~600 hits. */
const RECENT_FIRST_SPAN_BYTES = 64 * 1024;

/** One raw line held in memory: buf[start, end), line number n. */
export interface Span {
  n: number;
  buf: Buffer;
  start: number;
  end: number;
}

/** Template keys for raw log lines: the cleaned text is what lineTemplate masks, as the evidence stage sees it. */
export function lineKeys(): RawTemplateKeys {
  return new RawTemplateKeys(
    (buf, start, end) => cleanLine(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength).toString('utf8', start, Math.min(end, start + MAX_LOG_LINE_BYTES))),
    TEMPLATE_KEY_CACHE,
    TEMPLATE_MASK_BUDGET,
  );
}

/**
 * The hits nearest the end: in the raw lines just before the tail window, the last `recentHits` lines
 * with a needle are offered to the middle with their context, decoded only for the ones kept.
 */
export function recentHits(middle: MiddleHits, keys: RawTemplateKeys, spans: readonly Span[], decode: (sp: Span) => LogLine): void {
  const { recentHits: want, contextBefore, contextAfter, windowBytes } = middle.bounds;
  if (want <= 0) return;
  const at = lastNeedleLines(spans, want);
  for (const i of at.reverse()) {
    const sp = spans[i]!;
    const hit = middle.offerRecent(sp.n, keys.keyOf(sp.buf, sp.start, sp.end));
    if (!hit) continue;
    let bytes = 0;
    for (let k = Math.max(0, i - contextBefore); k <= Math.min(spans.length - 1, i + contextAfter) && bytes <= windowBytes; k++) {
      const line = decode(spans[k]!);
      bytes += line.text.length + 1;
      middle.addLine(hit, line);
    }
  }
}

/**
 * The indexes of the last `want` spans holding a needle, in descending order. Each held buffer's spans
 * are searched forwards with one pass per needle (HitFinder), the buffers from the last one back until
 * enough are found — not seven searches in every line: the stream's 16 MB before the tail are ~160,000
 * lines, and searching them line by line cost ~0.2 s where the buffer passes cost a few ms.
 */
function lastNeedleLines(spans: readonly Span[], want: number): number[] {
  const at: number[] = [];
  const finder = new HitFinder();
  for (let hi = spans.length; hi > 0 && at.length < want; ) {
    const buf = spans[hi - 1]!.buf;
    let lo = hi - 1;
    while (lo > 0 && spans[lo - 1]!.buf === buf) lo--;
    finder.reset(buf);
    const found: number[] = [];
    let h = -1;
    for (let i = lo; i < hi; i++) {
      const sp = spans[i]!;
      if (h < sp.start) h = finder.next(sp.start);
      if (h < sp.end) found.push(i);
    }
    for (let k = found.length - 1; k >= 0 && at.length < want; k--) at.push(found[k]!);
    hi = lo;
  }
  return at;
}

/**
 * recentHits over the bytes before the tail window (the file path's tail read), buf[lo, hi) of whole
 * lines: the needles are searched in those bytes at once, backwards from `hi` in growing spans, not line
 * by line, and only the hits offered and their context are numbered (by counting the newlines between
 * them and `hi`, which starts line `hiLine`) and decoded; lines numbered `minLine` or less (the head's)
 * are not offered. A 16 MB read of short lines is half a million lines: none of them is split out.
 * `searchFrom` (a line start in [lo, hi]): no line before it holds a needle, so the search stops there;
 * context lines still reach back to `lo`.
 */
export function recentHitsInBuffer(middle: MiddleHits, keys: RawTemplateKeys, buf: Buffer, lo: number, hi: number, hiLine: number, minLine: number, decode: (start: number, end: number, n: number) => LogLine, searchFrom = lo): void {
  const { recentHits: want, contextBefore, contextAfter, windowBytes } = middle.bounds;
  if (want <= 0 || lo >= hi) return;
  const from = Math.min(hi, Math.max(lo, searchFrom));
  // Searched backwards from the end in growing spans: a dense 8 MB stretch holds ~80,000 hits, 300 are wanted.
  let starts: number[] = [];
  for (let span = RECENT_FIRST_SPAN_BYTES; ; span *= 4) {
    const s0 = Math.max(from, hi - span);
    starts = findHits(buf, s0, hi, Infinity, STREAM_NEEDLE_BUFFERS);
    if (starts.length >= want || s0 === from) break;
  }
  starts = starts.slice(-want);
  // Their numbers, counted back from `hi`.
  const ns = new Array<number>(starts.length);
  for (let j = starts.length - 1, n = hiLine, pos = hi; j >= 0; j--) {
    n -= countNewlines(buf, starts[j]!, pos);
    pos = starts[j]!;
    ns[j] = n;
  }
  // Dense hits share their context (40 lines after each): each line is decoded once, not once per hit.
  // Bounded by the hits' windows (want × context lines), dropped on return.
  const decoded = new Map<number, LogLine>();
  const decodeOnce = (start: number, end: number, n: number): LogLine => {
    let line = decoded.get(n);
    if (!line) decoded.set(n, (line = decode(start, end, n)));
    return line;
  };
  for (let j = 0; j < starts.length; j++) {
    const s = starts[j]!;
    const n = ns[j]!;
    if (n <= minLine) continue;
    const end = buf.indexOf(10, s);
    const hit = middle.offerRecent(n, keys.keyOf(buf, s, end));
    if (!hit) continue;
    // The lines before it (not before lo, not the head's), the hit, then the lines after it (not past hi).
    const before: number[] = [];
    for (let p = s; before.length < contextBefore && p > lo && n - before.length - 1 > minLine; ) {
      p = p >= 2 ? buf.lastIndexOf(10, p - 2) + 1 : 0;
      if (p < lo) p = lo;
      before.push(p);
    }
    let bytes = 0;
    const add = (start: number, end: number, k: number): boolean => {
      if (bytes > windowBytes) return false;
      const line = decodeOnce(start, end, k);
      bytes += line.text.length + 1;
      middle.addLine(hit, line);
      return true;
    };
    let ok = true;
    for (let i = before.length - 1; i >= 0 && ok; i--) ok = add(before[i]!, (i > 0 ? before[i - 1]! : s) - 1, n - 1 - i);
    if (ok) ok = add(s, end, n);
    for (let k = 1, p = end + 1; ok && k <= contextAfter && p < hi; k++) {
      const e = buf.indexOf(10, p);
      ok = add(p, e, n + k);
      p = e + 1;
    }
  }
}
