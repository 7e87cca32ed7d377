import type { LogLine } from '../types.js';
import { cleanLine, ghRunViewJob } from './clean.js';
import { findMarkers, mayHoldMarker } from './markers.js';
import {
  FULL_KEEP_BYTES,
  FULL_KEEP_LINES,
  HEAD_LINES,
  MAX_LOG_LINE_BYTES,
  MIDDLE_EXACT_HITS,
  MIDDLE_RARE_NEEDLE_SHARE,
  MIDDLE_RECENT_BYTES,
  MIDDLE_SAMPLE_EVERY,
  MIDDLE_SAMPLE_WINDOW,
  MIDDLE_STEP_SCAN_BYTES,
  STREAM_TAP_MAX_LINE_BYTES,
  STREAM_TAP_PENDING_BYTES,
  TAIL_BYTES,
  TAIL_LINES,
} from '../limits.js';
import { KeySampler, MIDDLE_BOUNDS, MiddleHits, type MiddleBounds, type MiddleNote } from './middle-hits.js';
import { HitFinder, hasNeedle, hitMarker, STREAM_NEEDLE_BUFFERS, STREAM_NEEDLES } from './hit-finder.js';
import { MARKER_LITERALS } from './sample-dense-middle.js';
import { TargetedTap } from './targeted-tap.js';
import { countNewlines } from './line-counter.js';
import { lineKeys, recentHits, type Span } from './middle-windows.js';

/** A fold / section boundary of a CI that hides its markers in escape sequences (GitLab, Travis). */
export interface SectionMarker {
  n: number;
  kind: 'start' | 'end';
  name: string;
  /** `gh-job`: a `gh run view --log` text's next job begins (its name; see ghRunViewJob). */
  ci: 'gitlab' | 'travis' | 'gh-job';
  /** A Travis `travis_time:` marker around one command (its name is the timer id). */
  timer?: true;
}

/** What a pass over the log keeps: every line of a normal log, or bounded windows of a huge one. */
export interface LogScan {
  bytes: number;
  totalLines: number;
  /** Kept lines, cleaned, in order; a huge log has gaps (see `complete`). */
  lines: LogLine[];
  sections: SectionMarker[];
  /** True when every line was kept. */
  complete: boolean;
  /** True when the reader stopped at MAX_LOG_BYTES. */
  capped: boolean;
  /** A huge log's middle: error-looking lines seen, kept and dropped by the bounds (MiddleHits). */
  middle?: MiddleNote;
}

/**
 * Reads a log stream once and keeps what diagnosis needs. Logs up to FULL_KEEP_BYTES are kept whole;
 * past that the scan keeps the head, the tail and a bounded middle (MiddleHits: error-looking lines by
 * step, rarity and recency, with context), so memory stays bounded whatever the size or the content.
 */
export async function scanLog(
  chunks: AsyncIterable<Buffer>,
  state: { capped: boolean } = { capped: false },
  bounds: MiddleBounds = MIDDLE_BOUNDS,
  file?: FileLink,
): Promise<LogScan> {
  const scanner = new Scanner(bounds, file !== undefined);
  if (file) file.scanner = scanner;
  for await (const chunk of chunks) {
    scanner.push(chunk);
    await scanner.backpressure();
  }
  return scanner.finish(state.capped);
}

/**
 * What a reader of a big file on disk (scan-big-file.ts) shares with the scanner: the file is known to be
 * huge, so the scanner starts in huge mode (nothing held whole), and once the scanner has cut a long line
 * the reader skips the rest of it at memchr speed in a reused buffer instead of handing over fresh chunks
 * nobody looks at (a 1 GB line: ~1 s of CPU less, most of it allocation and GC).
 */
export interface FileLink {
  scanner?: { cuttingLine(): boolean; skipped(bytes: number): void };
}

/** A kept middle hit still collecting the lines after it. */
interface OpenWindow {
  hit: ReturnType<MiddleHits['offer']> & object;
  until: number;
  bytes: number;
}

class Scanner {
  private bytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private pendingLines = 0;
  private huge = false;
  // Huge-mode state.
  private n = 0;
  private carry: Buffer | null = null;
  private carryOverflow = false;
  private readonly head: LogLine[] = [];
  private readonly sections: SectionMarker[] = [];
  /** The job of the last `gh run view --log` line decoded (a `gh-job` marker is noted when it changes). */
  private ghJob: string | undefined;
  private tail: { buf: Buffer; firstLine: number }[] = [];
  private tailBytes = 0;
  private open: OpenWindow[] = [];
  private readonly middle: MiddleHits;
  private readonly keys = lineKeys();
  private readonly finder = new HitFinder();
  private readonly sampler = new KeySampler();
  /** Bytes of the log before the body being scanned (the sampler's offsets). */
  private base = 0;
  // Which needles the hits hold, on one hit in RARE_PROBE_EVERY (the sampled stream searches the rare ones).
  private readonly needleSeen = new Array<number>(STREAM_NEEDLE_BUFFERS.length).fill(0);
  private probed = 0;
  // The sampled stream (past the exact hits): ripgrep beside us, the partial last line, the step being read.
  private tap: TargetedTap | null = null;
  private tapCarry: Buffer | null = null;
  private stepLeft = 0;
  private stepEnd = 0;
  private readonly sample = { bytes: 0, offered: 0, windowHits: 0, windowBytes: 0 };

  constructor(bounds: MiddleBounds, knownHuge = false) {
    this.middle = new MiddleHits(bounds);
    this.huge = knownHuge;
  }

  /** Whether the line being read is already cut (its next bytes up to a newline are not looked at). */
  cuttingLine(): boolean {
    return this.huge && this.tap === null && this.carryOverflow;
  }

  /** Bytes of a cut line the reader skipped (counted, never looked at). */
  skipped(bytes: number): void {
    this.bytes += bytes;
  }

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (!this.huge) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      this.pendingLines += countNewlines(chunk, 0, chunk.length);
      if (this.pendingBytes <= FULL_KEEP_BYTES && this.pendingLines <= FULL_KEEP_LINES) return;
      this.huge = true;
      const held = this.pending;
      this.pending = [];
      for (const c of held) {
        if (this.tap) this.pushSampled(c);
        else {
          this.scanChunk(c);
          this.maybeSample();
        }
      }
      return;
    }
    if (this.tap) return this.pushSampled(chunk);
    this.scanChunk(chunk);
    this.maybeSample();
  }

  /** Resolves when ripgrep has caught up enough with a sampled stream (memory stays bounded). */
  async backpressure(): Promise<void> {
    if (this.tap && this.tap.pending > STREAM_TAP_PENDING_BYTES) await this.tap.waitBelow(STREAM_TAP_PENDING_BYTES / 2);
  }

  async finish(capped: boolean): Promise<LogScan> {
    if (!this.huge) return this.finishWhole(capped);
    if (this.tap) {
      await this.tap.end();
      this.tap = null;
      // The partial last line of a sampled stream goes the ordinary way.
      if (this.tapCarry) this.scanChunk(this.tapCarry);
      this.tapCarry = null;
    }
    if (this.sample.windowBytes > 0) {
      const estimated = Math.round((this.sample.windowHits * this.sample.bytes) / this.sample.windowBytes);
      this.middle.addUnseen(Math.max(0, estimated - this.sample.offered), true);
    }
    if (this.carry && this.carry.length) {
      // The last line had no newline.
      const line = this.carry;
      this.carry = null;
      this.addTail(line, this.n + 1);
      this.scanLines(Buffer.concat([line, NEWLINE]), true);
    }
    return this.finishHuge(capped);
  }

  private finishWhole(capped: boolean): LogScan {
    const all = Buffer.concat(this.pending);
    this.pending = [];
    const lines: LogLine[] = [];
    let start = 0;
    let n = 0;
    while (start < all.length) {
      let end = all.indexOf(10, start);
      if (end === -1) end = all.length;
      n++;
      lines.push(this.decodeLine(all, start, end, n));
      start = end + 1;
    }
    return { bytes: this.bytes, totalLines: n, lines, sections: this.sections, complete: true, capped };
  }

  private decodeLine(buf: Buffer, start: number, end: number, n: number): LogLine {
    const cut = end - start > MAX_LOG_LINE_BYTES;
    const raw = buf.toString('utf8', start, cut ? start + MAX_LOG_LINE_BYTES : end);
    if (mayHoldMarker(raw)) this.noteSection(raw, n);
    const job = ghRunViewJob(raw);
    if (job !== undefined && job !== this.ghJob) {
      this.ghJob = job;
      this.sections.push({ n, kind: 'start', name: job, ci: 'gh-job' });
    }
    const text = cleanLine(raw) + (cut ? ` … [line cut at ${MAX_LOG_LINE_BYTES} bytes]` : '');
    return { n, text };
  }

  /** Records every marker on the line: one line can end a fold and start the next. */
  private noteSection(raw: string, n: number): void {
    this.sections.push(...findMarkers(raw, n));
  }

  /** Huge mode: split off the partial last line, hand the whole lines on. */
  private scanChunk(chunk: Buffer): void {
    let pos = 0;
    if (this.carry) {
      const nl = chunk.indexOf(10);
      if (nl === -1) {
        this.appendCarry(chunk);
        return;
      }
      this.appendCarry(chunk.subarray(0, nl));
      const line = this.carry;
      this.carry = null;
      this.carryOverflow = false;
      // The line that straddled the chunk border belongs to the tail window like any other line.
      this.addTail(line, this.n + 1);
      this.scanLines(Buffer.concat([line, NEWLINE]), true);
      pos = nl + 1;
    }
    const lastNl = chunk.lastIndexOf(10);
    if (lastNl < pos) {
      this.appendCarry(chunk.subarray(pos));
      return;
    }
    const body = chunk.subarray(pos, lastNl + 1);
    this.addTail(body, this.n + 1);
    this.scanLines(body, false);
    if (lastNl + 1 < chunk.length) this.appendCarry(chunk.subarray(lastNl + 1));
  }

  /**
   * Walks the whole lines of `body` (it ends with a newline). Lines without a needle are only counted
   * (memchr speed); a hit is keyed by its template and offered to the bounded middle; lines are decoded
   * only for the head and for the hits kept, with their context.
   */
  private scanLines(body: Buffer, single: boolean): void {
    const finder = this.finder;
    finder.reset(body);
    let pos = 0;
    let h = -1;
    const len = body.length;
    while (pos < len) {
      if (h < pos) h = finder.next(pos);
      if (this.n >= HEAD_LINES && this.open.length === 0) {
        // Past the head with no window open, the lines before the next hit are only counted.
        const stop = h >= len ? len : body.lastIndexOf(10, h) + 1;
        if (stop > pos) {
          for (let p = body.indexOf(10, pos); p !== -1 && p < stop; p = body.indexOf(10, p + 1)) this.n++;
          pos = stop;
          if (pos >= len) break;
        }
      }
      const end = body.indexOf(10, pos);
      this.n++;
      const hit = h < end;
      if (this.n <= HEAD_LINES) {
        this.head.push(this.decodeLine(body, pos, end, this.n));
        if (hit) this.middle.mark(hitMarker(body, pos, end));
      } else if (this.open.length) {
        // Lines after a kept hit: its context.
        let line: LogLine | null = null;
        for (const w of this.open) {
          if (!this.middle.held(w.hit) || w.bytes > this.middle.bounds.windowBytes) continue;
          line ??= this.decodeLine(body, pos, end, this.n);
          this.middle.addLine(w.hit, line);
          w.bytes += line.text.length + 1;
        }
        this.open = this.open.filter((w) => w.until > this.n && this.middle.held(w.hit) && w.bytes <= this.middle.bounds.windowBytes);
        if (hit) this.onHit(body, pos, end, line, single);
      } else if (hit) this.onHit(body, pos, end, null, single);
      pos = end + 1;
    }
    this.base += len;
  }

  private onHit(body: Buffer, start: number, end: number, decoded: LogLine | null, single: boolean): void {
    if (this.middle.hits % RARE_PROBE_EVERY === 0) {
      this.probed++;
      const line = body.subarray(start, end);
      for (let k = 0; k < STREAM_NEEDLE_BUFFERS.length; k++) if (line.indexOf(STREAM_NEEDLE_BUFFERS[k]!) !== -1) this.needleSeen[k]!++;
    }
    const key = this.sampler.take(this.base + start) ? this.keys.keyOf(body, start, end) : null;
    const hit = this.middle.offer(this.n, key, hitMarker(body, start, end));
    if (!hit) return;
    // The lines before it (within this chunk), the hit itself, then a window open for the lines after.
    if (!single) {
      const starts: number[] = [];
      let s = start;
      for (let k = 0; k < this.middle.bounds.contextBefore && s > 0; k++) {
        s = body.lastIndexOf(10, s - 2) + 1;
        starts.unshift(s);
      }
      for (let i = 0; i < starts.length; i++) {
        const n = this.n - (starts.length - i);
        if (n > HEAD_LINES) this.middle.addLine(hit, this.decodeLine(body, starts[i]!, (starts[i + 1] ?? start) - 1, n));
      }
    }
    const line = decoded ?? this.decodeLine(body, start, end, this.n);
    this.middle.addLine(hit, line);
    if (this.middle.bounds.contextAfter > 0) this.open.push({ hit, until: this.n + this.middle.bounds.contextAfter, bytes: line.text.length + 1 });
  }

  /**
   * Past the exact hits (a stream saying "error" on every line), the rest is sampled as the file path
   * samples it: ripgrep, fed the same bytes, finds every step and error marker and every line with a
   * needle rare so far; one window of `sampleWindow` bytes every `sampleEvery` bytes is looked at line by
   * line, and so are each step's first hits and the context of kept hits; the lines between are only
   * counted (memchr speed). The hits never looked at are estimated from the windows (hitsEstimated).
   */
  private maybeSample(): void {
    const exact = this.middle.bounds.exactHits ?? MIDDLE_EXACT_HITS;
    if (this.middle.hits < exact || this.n <= HEAD_LINES || this.carryOverflow) return;
    const rare = STREAM_NEEDLES.filter((_, k) => this.needleSeen[k]! < Math.max(1, this.probed * MIDDLE_RARE_NEEDLE_SHARE));
    this.tapCarry = this.carry;
    this.carry = null;
    this.tap = new TargetedTap(
      [...MARKER_LITERALS, ...rare],
      (seg, starts) => this.scanSampled(seg.buf, starts),
      (pending) => this.stopSampling(pending),
    );
  }

  private pushSampled(chunk: Buffer): void {
    const lastNl = chunk.lastIndexOf(10);
    if (lastNl === -1) {
      this.tapCarry = this.tapCarry ? Buffer.concat([this.tapCarry, chunk]) : chunk;
      // A line too long to hand to ripgrep whole: the rest of the stream goes the ordinary way.
      if (this.tapCarry.length > STREAM_TAP_MAX_LINE_BYTES) this.tap!.abandon();
      return;
    }
    // The line straddling the chunks is its own (small) segment: the rest is handed on without a copy.
    // (A push can find ripgrep failed: then stopSampling has scanned what it held, and the rest goes the ordinary way.)
    let from = 0;
    if (this.tapCarry) {
      from = chunk.indexOf(10) + 1;
      const line = Buffer.concat([this.tapCarry, chunk.subarray(0, from)]);
      this.tapCarry = null;
      this.tap!.push({ buf: line });
      if (!this.tap) return this.scanChunk(chunk.subarray(from));
    }
    if (from <= lastNl) this.tap!.push({ buf: chunk.subarray(from, lastNl + 1) });
    const rest = lastNl + 1 < chunk.length ? chunk.subarray(lastNl + 1) : null;
    if (this.tap) this.tapCarry = rest;
    else if (rest) this.scanChunk(rest);
  }

  /** ripgrep failed (or a line was too long for it): what it had not answered for is scanned line by line. */
  private stopSampling(pending: { buf: Buffer }[]): void {
    this.tap = null;
    for (const { buf } of pending) {
      this.addTail(buf, this.n + 1);
      this.scanLines(buf, false);
    }
    const rest = this.tapCarry;
    this.tapCarry = null;
    if (rest) this.scanChunk(rest);
  }

  /** One segment of a sampled stream (whole lines), with the line starts ripgrep matched in it. */
  private scanSampled(body: Buffer, targeted: number[]): void {
    this.addTail(body, this.n + 1);
    const every = this.middle.bounds.sampleEvery ?? MIDDLE_SAMPLE_EVERY;
    const win = this.middle.bounds.sampleWindow ?? MIDDLE_SAMPLE_WINDOW;
    const len = body.length;
    const base = this.base;
    let pos = 0;
    let ti = 0;
    while (pos < len) {
      const abs = base + pos;
      const winStart = abs - (abs % every);
      const inWin = abs - winStart < win;
      const inStep = this.stepLeft > 0 && abs < this.stepEnd;
      while (ti < targeted.length && targeted[ti]! < pos) ti++;
      if (!inWin && !inStep && this.open.length === 0 && targeted[ti] !== pos) {
        // Nothing to look at before the next targeted line or window: count the lines, skip them.
        const next = Math.min(ti < targeted.length ? targeted[ti]! : len, winStart + every - base, len);
        const to = body[next - 1] === 10 ? next : body.indexOf(10, next) + 1 || len;
        let p = body.indexOf(10, pos);
        for (; p !== -1 && p < to; p = body.indexOf(10, p + 1)) this.n++;
        pos = to;
        continue;
      }
      const end = body.indexOf(10, pos);
      this.n++;
      const isTargeted = targeted[ti] === pos;
      const hit = isTargeted || ((inWin || inStep) && hasNeedle(body, pos, end));
      let line: LogLine | null = null;
      if (this.open.length) {
        // Lines after a kept hit: its context.
        for (const w of this.open) {
          if (!this.middle.held(w.hit) || w.bytes > this.middle.bounds.windowBytes) continue;
          line ??= this.decodeLine(body, pos, end, this.n);
          this.middle.addLine(w.hit, line);
          w.bytes += line.text.length + 1;
        }
        this.open = this.open.filter((w) => w.until > this.n && this.middle.held(w.hit) && w.bytes <= this.middle.bounds.windowBytes);
      }
      if (inWin) this.sample.windowBytes += end - pos + 1;
      if (hit) {
        if (inWin) this.sample.windowHits++;
        this.sample.offered++;
        const marker = hitMarker(body, pos, end);
        this.onHit(body, pos, end, line, false);
        if (marker === 'step') {
          this.stepLeft = this.middle.bounds.stepHits;
          this.stepEnd = abs + (end - pos) + 1 + MIDDLE_STEP_SCAN_BYTES;
        } else if (inStep) this.stepLeft--;
      }
      pos = end + 1;
    }
    this.base += len;
    this.sample.bytes += len;
  }

  private appendCarry(part: Buffer): void {
    if (this.carryOverflow) return;
    const next = this.carry ? Buffer.concat([this.carry, part]) : Buffer.from(part);
    if (next.length > MAX_LOG_LINE_BYTES) {
      this.carry = next.subarray(0, MAX_LOG_LINE_BYTES + 1);
      this.carryOverflow = true;
    } else this.carry = next;
  }

  private addTail(buf: Buffer, firstLine: number): void {
    this.tail.push({ buf, firstLine });
    this.tailBytes += buf.length;
    // The tail window, and before it the stretch searched for the hits nearest the end.
    const keep = TAIL_BYTES + MIDDLE_RECENT_BYTES;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.buf.length >= keep) {
      this.tailBytes -= this.tail.shift()!.buf.length;
    }
  }

  private finishHuge(capped: boolean): LogScan {
    // Number the kept tail bytes line by line, then decode only the last TAIL_LINES within TAIL_BYTES.
    const spans: Span[] = [];
    for (const { buf, firstLine } of this.tail) {
      let start = 0;
      let n = firstLine;
      while (start < buf.length) {
        let end = buf.indexOf(10, start);
        if (end === -1) end = buf.length;
        spans.push({ n, buf, start, end });
        n++;
        start = end + 1;
      }
    }
    let first = spans.length;
    for (let bytes = 0; first > 0 && spans.length - first < TAIL_LINES && bytes < TAIL_BYTES; ) {
      const sp = spans[--first]!;
      bytes += sp.end - sp.start + 1;
    }
    const tailStart = first < spans.length ? spans[first]!.n : this.n + 1;
    const decodedTail = spans.slice(first).map((x) => this.decodeLine(x.buf, x.start, x.end, x.n));
    recentHits(this.middle, this.keys, spans.slice(0, first), (sp) => this.decodeLine(sp.buf, sp.start, sp.end, sp.n));
    const { lines: mid, note } = this.middle.finish();
    const lines = this.head.concat(
      mid.filter((l) => l.n > HEAD_LINES && l.n < tailStart),
      decodedTail.filter((l) => l.n > HEAD_LINES),
    );
    return {
      bytes: this.bytes,
      totalLines: this.n,
      lines,
      sections: this.sections.sort((a, b) => a.n - b.n).filter((m, i, all) => i === 0 || m.n !== all[i - 1]!.n || m.name !== all[i - 1]!.name || m.kind !== all[i - 1]!.kind),
      complete: lines.length === this.n,
      capped,
      middle: note,
    };
  }
}

const NEWLINE = Buffer.from('\n');
/** One hit in this many is probed for which needles it holds (rare needles, cheaply). */
const RARE_PROBE_EVERY = 16;
