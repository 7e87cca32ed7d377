import type { LogLine } from '../types.js';
import { RawTemplateKeys } from '../evidence/templates.js';
import { MAX_LOG_LINE_BYTES, TEMPLATE_KEY_CACHE, TEMPLATE_MASK_BUDGET } from '../limits.js';
import { cleanLine } from './clean.js';
import { findHits, hasNeedle, STREAM_NEEDLE_BUFFERS } from './hit-finder.js';
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
  const at: number[] = [];
  for (let i = spans.length - 1; i >= 0 && at.length < want; i--) {
    const sp = spans[i]!;
    if (hasNeedle(sp.buf, sp.start, sp.end)) at.push(i);
  }
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

/** Raw lines held in one buffer by their offsets: line i is buf[starts[i], ends[i]). */
export interface LineTable {
  buf: Buffer;
  starts: number[];
  ends: number[];
}

/**
 * recentHits over a line table (the file path's tail read): the needles are searched in the region's
 * bytes at once, not line by line, and only the lines kept are made into objects (a 16 MB read of short
 * lines is half a million lines).
 */
export function recentHitsInTable(middle: MiddleHits, keys: RawTemplateKeys, t: LineTable, from: number, to: number, nOf: (i: number) => number, decode: (i: number) => LogLine): void {
  const { recentHits: want, contextBefore, contextAfter, windowBytes } = middle.bounds;
  if (want <= 0 || from >= to) return;
  // Searched backwards from the end in growing spans: a dense 8 MB stretch holds ~80,000 hits, 300 are wanted.
  const lo = t.starts[from]!;
  const hi = t.ends[to - 1]!;
  let starts: number[] = [];
  for (let span = RECENT_FIRST_SPAN_BYTES; ; span *= 4) {
    const s0 = Math.max(lo, hi - span);
    starts = findHits(t.buf, s0, hi, Infinity, STREAM_NEEDLE_BUFFERS);
    if (starts.length >= want || s0 === lo) break;
  }
  starts = starts.slice(-want);
  // Dense hits share their context (40 lines after each): each line is decoded once, not once per hit.
  // Bounded by the hits' windows (want × context lines), dropped on return.
  const decoded = new Map<number, LogLine>();
  const decodeOnce = (k: number): LogLine => {
    let line = decoded.get(k);
    if (!line) decoded.set(k, (line = decode(k)));
    return line;
  };
  let i = from;
  for (const s of starts) {
    while (i < to && t.starts[i]! < s) i++;
    if (i >= to || t.starts[i] !== s) continue;
    const hit = middle.offerRecent(nOf(i), keys.keyOf(t.buf, t.starts[i]!, t.ends[i]!));
    if (!hit) continue;
    let bytes = 0;
    for (let k = Math.max(from, i - contextBefore); k <= Math.min(to - 1, i + contextAfter) && bytes <= windowBytes; k++) {
      const line = decodeOnce(k);
      bytes += line.text.length + 1;
      middle.addLine(hit, line);
    }
  }
}
