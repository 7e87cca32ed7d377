import { closeSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { setImmediate as yieldNow } from 'node:timers/promises';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { LogReadError } from '../errors.js';
import type { LogLine } from '../types.js';
import { cleanLine } from './clean.js';
import { findMarkers, mayHoldMarker } from './markers.js';
import type { FileLink, LogScan, SectionMarker } from './scan-log.js';
import { RgOutOfMemory, spawnBoundedRg } from './bounded-rg.js';
import { scanLog } from './scan-log.js';
import { sampleDenseMiddle, startDenseSearches, type DenseSample, type DenseSearches } from './sample-dense-middle.js';
import { FILE_FALLBACK_CHUNK_BYTES, HEAD_LINES, RG_LOG_MEMORY_BYTES, MAX_LOG_BYTES, MAX_LOG_LINE_BYTES, MIDDLE_EXACT_HITS, MIDDLE_RARE_NEEDLE_SHARE, MIDDLE_RECENT_BYTES, TAIL_BYTES, TAIL_LINES } from '../limits.js';
import { KeySampler, MIDDLE_BOUNDS, MiddleHits, type MiddleBounds } from './middle-hits.js';
import { FILE_NEEDLES, hitMarker } from './hit-finder.js';
import { lineKeys, recentHitsInBuffer } from './middle-windows.js';
import { countNewlines } from './line-counter.js';
import { cleanWindow } from './clean-window.js';

/** Bytes read before a hit for its context lines (5 lines at typical log widths). */
const CONTEXT_WINDOW_BEFORE = 4 * 1024;

/**
 * Scans a big plain log file on disk without reading it through JavaScript line by line: the head and
 * the tail are read directly, the middle's error-looking lines come from the bundled ripgrep (each one
 * counted by its template and offered to the bounded middle, MiddleHits), the kept ones' context is read
 * at their byte offsets, and the total line count comes from a line of the tail read whose number is
 * known (ripgrep's first hit there, or the sampled middle's count), `wc -l` only when there is none.
 * Memory is bounded by the windows and the middle's bounds, not by the file or what it says.
 */
export async function scanBigFile(path: string, size: number, bounds: MiddleBounds = MIDDLE_BOUNDS): Promise<LogScan> {
  // A line ripgrep cannot buffer, found up front: its run would read up to the line and fail there.
  if (!(await hasGiantLine(path, size))) {
    try {
      return await scanWithRipgrep(path, size, bounds);
    } catch (e) {
      // A line longer than ripgrep may buffer that the probes missed, or no ripgrep to run.
      if (!(e instanceof RgOutOfMemory)) throw e;
    }
  }
  // The stream scanner reads the file in bounded chunks and cuts long lines, at JavaScript speed; the
  // rest of a cut line is skipped at memchr speed (FileLink).
  const state = { capped: false };
  const link: FileLink = {};
  return scanLog(fileChunks(path, state, link), state, bounds, link);
}

/** Bytes probed for a newline every GIANT_PROBE_EVERY bytes of the file (one read each). */
const GIANT_PROBE_BYTES = 64 * 1024;
/** Probes this far apart meet every line of RG_LOG_MEMORY_BYTES or more at least once (two for the longest). */
const GIANT_PROBE_EVERY = RG_LOG_MEMORY_BYTES / 2;

/**
 * Whether the file holds a line of RG_LOG_MEMORY_BYTES or more (ripgrep, capped there, would fail on it
 * after reading the file up to it). A probe of GIANT_PROBE_BYTES every GIANT_PROBE_EVERY bytes (32 reads
 * for 1 GB); one without a newline is measured backwards to its line's start (at most the probe spacing)
 * and forwards until the line is proven that long or ends. Each line is measured once, so the reads stay
 * below one pass over the file whatever it holds; a file of ordinary lines costs the probes alone.
 */
async function hasGiantLine(path: string, size: number): Promise<boolean> {
  if (size < RG_LOG_MEMORY_BYTES) return false;
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(GIANT_PROBE_BYTES);
    let measuredTo = 0;
    for (let p = GIANT_PROBE_EVERY; p < size; p += GIANT_PROBE_EVERY) {
      if (p < measuredTo) continue;
      const got = readSync(fd, buf, 0, buf.length, p);
      if (got <= 0) break;
      if (buf.subarray(0, got).indexOf(10) !== -1) continue;
      // The start of the line: back from the probe, a block at a time.
      let start = p;
      for (let back = p; back > p - GIANT_PROBE_EVERY && back > 0; ) {
        const from = Math.max(0, back - GIANT_PROBE_BYTES);
        const n = readSync(fd, buf, 0, back - from, from);
        const nl = buf.subarray(0, n).lastIndexOf(10);
        if (nl !== -1) {
          start = from + nl + 1;
          break;
        }
        start = back = from;
      }
      // Forwards until it ends or is long enough to fail ripgrep.
      let end = p + got;
      while (end - start < RG_LOG_MEMORY_BYTES && end < size) {
        const n = readSync(fd, buf, 0, buf.length, end);
        if (n <= 0) break;
        const nl = buf.subarray(0, n).indexOf(10);
        if (nl !== -1) {
          end += nl;
          break;
        }
        end += n;
      }
      if (end - start >= RG_LOG_MEMORY_BYTES) return true;
      measuredTo = end;
      await yieldNow();
    }
    return false;
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's bytes in small fresh chunks (the scanner holds some: its tail), read synchronously with a
 * yield to the event loop every few MB; stops at MAX_LOG_BYTES like openLog. While the scanner is cutting
 * a long line, the rest of it is read into one reused buffer, only to find its end.
 */
async function* fileChunks(path: string, state: { capped: boolean }, link: FileLink): AsyncGenerator<Buffer> {
  const fd = openSync(path, 'r');
  let scratch: Buffer | null = null;
  try {
    for (let pos = 0, k = 1; ; k++) {
      if (pos >= MAX_LOG_BYTES) {
        state.capped = true;
        return;
      }
      if (link.scanner?.cuttingLine()) {
        scratch ??= Buffer.allocUnsafeSlow(LONG_LINE_SKIP_BYTES);
        const got = readSync(fd, scratch, 0, Math.min(scratch.length, MAX_LOG_BYTES - pos), pos);
        if (got <= 0) return;
        const nl = scratch.subarray(0, got).indexOf(10);
        const skip = nl === -1 ? got : nl;
        link.scanner.skipped(skip);
        pos += skip;
        if (k % 16 === 0) await yieldNow();
        if (nl === -1) continue;
      }
      const buf = Buffer.allocUnsafeSlow(Math.min(FILE_FALLBACK_CHUNK_BYTES, MAX_LOG_BYTES - pos));
      const got = readSync(fd, buf, 0, buf.length, pos);
      if (got <= 0) return;
      pos += got;
      yield got < buf.length ? buf.subarray(0, got) : buf;
      if (k % 64 === 0) await yieldNow();
    }
  } finally {
    closeSync(fd);
  }
}

/** The rest of a cut line is searched for its end in reads this big (one reused buffer that stays in the CPU cache: 1 MB reads cost ~2.5x the system time). */
const LONG_LINE_SKIP_BYTES = 64 * 1024;

async function scanWithRipgrep(path: string, size: number, bounds: MiddleBounds): Promise<LogScan> {
  const sections: SectionMarker[] = [];
  const decode = (raw: string, n: number): LogLine => {
    const cut = raw.length > MAX_LOG_LINE_BYTES;
    const r = cut ? raw.slice(0, MAX_LOG_LINE_BYTES) : raw;
    if (mayHoldMarker(r)) sections.push(...findMarkers(r, n));
    return { n, text: cleanLine(r) + (cut ? ` … [line cut at ${MAX_LOG_LINE_BYTES} bytes]` : '') };
  };
  const middle = new MiddleHits(bounds);
  const keys = lineKeys();
  // The tail window and, before it, the stretch searched for the hits nearest the end: read directly.
  const tailFrom = Math.max(0, size - TAIL_BYTES - MIDDLE_RECENT_BYTES);
  // The head and the tail window are cleaned while ripgrep searches the middle (the tail's numbers come
  // from that search: its lines are numbered after it).
  const headP = readHead(path).then((raws) => raws.slice(0, HEAD_LINES).map((raw, i) => decode(raw, i + 1)));
  // A search busy with hits keeps this thread busy too: the cleaning then waits for it (interleaved, it
  // cost more CPU than it saved in wall time).
  const busy: SearchProgress = { records: 0 };
  const searched = searchMiddle(path, middle, keys, tailFrom, busy);
  const settled = searched.then(
    () => {},
    () => {},
  );
  const pause = (): Promise<void> | null => (busy.records > QUIET_SEARCH_RECORDS ? settled : null);
  const tailP = readTail(path, size, tailFrom).then(async (t) => ({ t, cleaned: await cleanWindow(t.buf, t.starts, t.ends, pause) }));
  const [headLines, { t: tail, cleaned }, found] = await Promise.all([headP, tailP, searched]);
  const { sample: dense } = found;
  // The hits never read: those the sampling estimates its stretch holds, less those it offered.
  if (dense) middle.addUnseen(Math.max(0, dense.estimatedHits - dense.offered), true);
  await readContexts(path, middle, decode);
  const headEnd = headLines.length;
  // The line count: from a line in the tail read whose number is known (ripgrep's first hit there, or the
  // sampled middle's count up to it), else `wc -l`; the tail is numbered back from its last line.
  const total = totalFromTail(tail, tailFrom, found.anchor ?? (dense?.linesTo !== undefined && tail.starts.length > 0 ? { n: dense.linesTo + 1, at: tailFrom + tail.first } : null)) ?? (await countLines(path, size));
  const count = tail.starts.length;
  const nOf = (i: number): number => total - (count - 1 - i);
  const tailStart = count > 0 ? nOf(0) : total + 1;
  const decodeAt = (i: number): LogLine => {
    const n = nOf(i);
    const raw = cleaned.markerRaws.get(i);
    if (raw !== undefined) sections.push(...findMarkers(raw, n));
    return { n, text: cleaned.texts[i]! };
  };
  // ripgrep's first hit in the tail read (its needles include the stream's): no line before it holds one,
  // so the search for the nearest hits starts there (a quiet 8 MB before the window is not searched again).
  const recentFrom = found.anchor ? Math.max(tail.first, Math.min(tail.windowAt, found.anchor.at - tailFrom)) : tail.first;
  recentHitsInBuffer(middle, keys, tail.buf, tail.first, tail.windowAt, tailStart, headEnd, (start, end, n) => decode(tail.buf.toString('utf8', start, Math.min(end, start + MAX_LOG_LINE_BYTES + 1)), n), recentFrom);
  const { lines: mid, note } = middle.finish();
  const lines = [...headLines, ...mid.filter((m) => m.n > headEnd && m.n < tailStart), ...Array.from({ length: count }, (_, i) => i).filter((i) => nOf(i) > headEnd).map(decodeAt)];
  return {
    bytes: size,
    totalLines: total,
    lines,
    sections: sections.sort((a, b) => a.n - b.n).filter((m, i, all) => i === 0 || m.n !== all[i - 1]!.n || m.name !== all[i - 1]!.name || m.kind !== all[i - 1]!.kind),
    complete: false,
    capped: false,
    middle: note,
  };
}

async function readHead(path: string): Promise<string[]> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(Math.min(4 * 1024 * 1024, HEAD_LINES * 2048));
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    // Decode the first HEAD_LINES lines only (a 4 MB decode of lines nobody keeps costs more than the search).
    let end = -1;
    for (let k = 0; k < HEAD_LINES; k++) {
      const nl = buf.indexOf(10, end + 1);
      if (nl === -1 || nl >= bytesRead) break;
      end = nl;
    }
    if (end === -1) return [];
    return buf.toString('utf8', 0, end).split('\n');
  } finally {
    await fh.close();
  }
}

/**
 * The bytes from `from` to the end: the tail window's lines (the last TAIL_LINES within TAIL_BYTES, found
 * backwards from the end) as spans numbered later, and before them the stretch searched for the hits
 * nearest the end, left as bytes (a 16 MB read of short lines is half a million lines: only the hits
 * offered and their context are ever split out of it).
 */
interface TailRead {
  buf: Buffer;
  /** Where the first whole line starts (after the partial first line), and where the window's first line starts. */
  first: number;
  windowAt: number;
  /** The window's lines: line i is buf[starts[i], ends[i]). */
  starts: number[];
  ends: number[];
}

async function readTail(path: string, size: number, from: number): Promise<TailRead> {
  const fh = await open(path, 'r');
  try {
    const len = size - from;
    const buf = Buffer.allocUnsafe(len);
    const { bytesRead } = await fh.read(buf, 0, len, from);
    let start = 0;
    if (from > 0) start = buf.indexOf(10) + 1; // drop the partial first line
    let end = bytesRead;
    if (end > start && buf[end - 1] === 10) end--;
    const t: TailRead = { buf, first: start, windowAt: start, starts: [], ends: [] };
    if (start <= 0 && from > 0) return t; // one line longer than the whole window: nothing whole
    // Back from the end: each line ends where the one after it starts, less its newline.
    const starts: number[] = [];
    const ends: number[] = [];
    for (let lineEnd = end, bytes = 0; starts.length < TAIL_LINES && bytes < TAIL_BYTES; ) {
      const nl = lineEnd > start ? buf.lastIndexOf(10, lineEnd - 1) : -1;
      const s = nl >= start ? nl + 1 : start;
      starts.push(s);
      ends.push(lineEnd);
      bytes += lineEnd - s + 1;
      if (s === start) break;
      lineEnd = s - 1;
    }
    t.starts = starts.reverse();
    t.ends = ends.reverse();
    t.windowAt = t.starts[0]!;
    return t;
  } finally {
    await fh.close();
  }
}

/**
 * The file's line count from one line of the tail read whose number is known (`n`, starting at file
 * offset `at`): n, plus the lines after it. Null when there is no such line.
 */
function totalFromTail(t: TailRead, from: number, anchor: { n: number; at: number } | null): number | null {
  if (!anchor || t.starts.length === 0) return null;
  let off = anchor.at - from;
  let n = anchor.n;
  if (off < 0 || off >= t.buf.length) return null;
  // A line starting exactly at `from` is the one the read drops as partial: the next one is n + 1.
  if (off < t.first) {
    off = t.first;
    n++;
  }
  if (off < t.windowAt) return n + countNewlines(t.buf, off, t.windowAt) + t.starts.length - 1;
  // In the window: its index among the window's line starts.
  let lo = 0;
  let hi = t.starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (t.starts[mid]! <= off) lo = mid;
    else hi = mid - 1;
  }
  return t.starts[lo] === off ? n + (t.starts.length - 1 - lo) : null;
}

/** Lines in the file: `wc -l` (+1 for a last line without newline); a JavaScript count where wc is missing. */
async function countLines(path: string, size: number): Promise<number> {
  const lastByte = await (async () => {
    const fh = await open(path, 'r');
    try {
      const b = Buffer.alloc(1);
      await fh.read(b, 0, 1, size - 1);
      return b[0];
    } finally {
      await fh.close();
    }
  })();
  const extra = lastByte === 10 ? 0 : 1;
  const viaWc = await new Promise<number | null>((resolve) => {
    let out = '';
    // No shell, the path after `--`: nothing in a file name can act as a flag or a command.
    const p = spawn('wc', ['-l', '--', path], { stdio: ['ignore', 'pipe', 'ignore'] });
    p.on('error', () => resolve(null));
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.on('close', (code) => resolve(code === 0 && /^\s*\d+/.test(out) ? Number(out.trim().split(/\s+/)[0]) : null));
  });
  if (viaWc !== null) return viaWc + extra;
  const fh = await open(path, 'r');
  let n = 0;
  try {
    for await (const chunk of fh.createReadStream({ highWaterMark: 4 * 1024 * 1024 })) {
      let p = 0;
      const b = chunk as Buffer;
      while ((p = b.indexOf(10, p)) !== -1) {
        n++;
        p++;
      }
    }
  } finally {
    await fh.close();
  }
  return n + extra;
}

/**
 * The middle's error-looking lines, each offered to the bounded middle as ripgrep prints it (its line
 * number, byte offset and text): counted by template, kept or dropped on the spot, so nothing grows with
 * the number of hits. Hits from `tailFrom` on are left to the tail read. ripgrep prints at most
 * `exactHits` lines (printing costs it ~0.5 µs a line); past them the rest of the middle is sampled
 * (sampleDenseMiddle), with the needles rare among the exact hits searched for everywhere.
 */
/** How far ripgrep's search of the middle has got (the tail's cleaning reads it to know when to wait). */
interface SearchProgress {
  records: number;
}

/** Hits printed by ripgrep up to which its search counts as quiet (the tail is cleaned beside it). */
const QUIET_SEARCH_RECORDS = 2000;

async function searchMiddle(path: string, middle: MiddleHits, keys: ReturnType<typeof lineKeys>, tailFrom: number, progress: SearchProgress = { records: 0 }): Promise<{ sample: DenseSample | null; anchor: { n: number; at: number } | null }> {
  const exact = middle.bounds.exactHits ?? MIDDLE_EXACT_HITS;
  // --no-mmap: a mapped 1 GB file counts as ripgrep's resident memory; read through its buffer instead.
  const args = ['--text', '--no-mmap', '--line-number', '--byte-offset', '--no-filename', '--color=never', '--fixed-strings', `--max-columns=${MAX_LOG_LINE_BYTES}`, `--max-count=${exact}`];
  for (const n of FILE_NEEDLES) args.push('-e', n);
  // ripgrep runs in `/`: a relative path would name another file.
  args.push('--', resolve(path));
  let carry: Buffer | null = null;
  let done = false;
  let records = 0;
  let last = { n: 0, at: 0 };
  let anchor: { n: number; at: number } | null = null;
  const sampler = new KeySampler();
  // Which needles the exact hits hold, on one record in RARE_PROBE_EVERY.
  const needleSeen = new Array<number>(FILE_NEEDLES.length).fill(0);
  let probed = 0;
  let searches: DenseSearches | null = null;
  const onRecords = (buf: Buffer): number => {
    let s = 0;
    for (;;) {
      const e = buf.indexOf(10, s);
      if (e === -1) return s;
      // `<line>:<offset>:<text>`
      let i = s;
      let n = 0;
      for (let c = buf[i]!; c >= 0x30 && c <= 0x39; c = buf[++i]!) n = n * 10 + (c - 0x30);
      let at = 0;
      for (let c = buf[++i]!; c >= 0x30 && c <= 0x39; c = buf[++i]!) at = at * 10 + (c - 0x30);
      const t = i + 1;
      if (at >= tailFrom) {
        // The first hit the tail read holds: its number numbers the tail (no `wc -l` pass over the file).
        done = true;
        anchor = { n, at };
        return buf.length;
      }
      records++;
      progress.records = records;
      last = { n, at };
      if (records === exact) {
        // The exact hits are spent: start the whole-file passes of the sampled middle now, beside this one.
        const rare = FILE_NEEDLES.filter((_, k) => needleSeen[k]! < Math.max(1, probed * MIDDLE_RARE_NEEDLE_SHARE));
        searches = startDenseSearches(path, rare);
      }
      if (t <= e) {
        if (records % RARE_PROBE_EVERY === 0) {
          probed++;
          const line = buf.subarray(t, e);
          for (let k = 0; k < NEEDLE_BUFS.length; k++) if (line.indexOf(NEEDLE_BUFS[k]!) !== -1) needleSeen[k]!++;
        }
        const marker = hitMarker(buf, t, e);
        if (n <= HEAD_LINES) middle.mark(marker);
        else {
          const hit = middle.offer(n, sampler.take(at) ? keys.keyOf(buf, t, e) : null, marker);
          // Its text is read from the file with its context (ripgrep's is cut at --max-columns).
          if (hit) hit.at = at;
        }
      }
      s = e + 1;
    }
  };
  const rg = spawnBoundedRg(args, {
    onChunk(chunk) {
      if (done) return;
      const buf = carry ? Buffer.concat([carry, chunk]) : chunk;
      const used = onRecords(buf);
      // A partial record waits for the next chunk; a record longer than any line we keep cannot be one.
      carry = used < buf.length && buf.length - used <= MAX_LOG_LINE_BYTES + 256 ? Buffer.from(buf.subarray(used)) : null;
    },
  });
  const r = await rg.done;
  if (r.code === 2 && !done) throw new LogReadError(path, `could not search the log: ${r.stderr.trim().split('\n')[0]}`);
  if (done || !searches) return { sample: null, anchor };
  // The exact hits are spent before the tail: sample the rest of the middle.
  const from = await lineEndAfter(path, last.at, tailFrom);
  if (from >= tailFrom) return { sample: { offered: 0, estimatedHits: 0 }, anchor: null };
  return { sample: await sampleDenseMiddle({ path, from, fromLine: last.n + 1, to: tailFrom }, searches, middle, keys, sampler), anchor: null };
}

/** One record in this many of the exact hits is probed for which needles it holds (rare needles, cheaply). */
const RARE_PROBE_EVERY = 16;
const NEEDLE_BUFS = FILE_NEEDLES.map((s) => Buffer.from(s));

/** The offset just past the newline that ends the line at `at` (or `limit` when none comes before it). */
async function lineEndAfter(path: string, at: number, limit: number): Promise<number> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(64 * 1024);
    for (let pos = at; pos < limit; ) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead <= 0) break;
      const nl = buf.indexOf(10);
      if (nl !== -1 && nl < bytesRead) return pos + nl + 1;
      pos += bytesRead;
    }
    return limit;
  } finally {
    await fh.close();
  }
}

/** Reads the context of every kept hit at its byte offset: HIT_CONTEXT_BEFORE lines before, HIT_CONTEXT_AFTER after. */
async function readContexts(path: string, middle: MiddleHits, decode: (raw: string, n: number) => LogLine): Promise<void> {
  const { contextBefore, contextAfter, windowBytes } = middle.bounds;
  // Synchronous reads of the page-cached file: one async read per kept hit cost a thread-pool round trip each.
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.allocUnsafe(CONTEXT_WINDOW_BEFORE + windowBytes);
    // Near hits share context lines: a whole line (its newline read) is decoded once, whoever asks. The
    // map holds only lines the held hits hold too, and goes on return.
    const whole = new Map<number, LogLine>();
    let reads = 0;
    const once = (from: number, to: number, n: number): LogLine => {
      let line = whole.get(n);
      if (!line) whole.set(n, (line = decode(buf.toString('utf8', from, to), n)));
      return line;
    };
    for (const h of middle.heldHits()) {
      if (h.at === undefined) continue;
      const from = Math.max(0, h.at - CONTEXT_WINDOW_BEFORE);
      const bytesRead = readSync(fd, buf, 0, buf.length, from);
      const at = h.at - from;
      const lineEnd = buf.indexOf(10, at);
      middle.addLine(h, lineEnd === -1 || lineEnd >= bytesRead ? decode(buf.toString('utf8', at, lineEnd === -1 || lineEnd > bytesRead ? bytesRead : lineEnd), h.n) : once(at, lineEnd, h.n));
      if (!middle.wantsContext(h)) continue;
      // Walk back over the lines before the hit, then forward over the lines after it.
      let start = at;
      const starts: number[] = [];
      for (let k = 0; k < contextBefore && start > 0; k++) {
        const prev = buf.lastIndexOf(10, start - 2);
        if (prev === -1 && from > 0) break; // the window does not reach that line's start
        start = prev + 1;
        starts.unshift(start);
      }
      for (let i = 0; i < starts.length; i++) middle.addLine(h, once(starts[i]!, (starts[i + 1] ?? at) - 1, h.n - (starts.length - i)));
      let pos = buf.indexOf(10, at) + 1;
      for (let k = 1; k <= contextAfter && pos > 0; k++) {
        const end = buf.indexOf(10, pos);
        if (end === -1 || end >= bytesRead) break;
        middle.addLine(h, once(pos, end, h.n + k));
        pos = end + 1;
      }
      if (++reads % CONTEXT_READS_PER_YIELD === 0) await yieldNow();
    }
  } finally {
    closeSync(fd);
  }
}

/** Kept hits' context reads between yields to the event loop (each is a few µs). */
const CONTEXT_READS_PER_YIELD = 256;
