import type { LogLine } from '../types.js';
import { cleanLine } from './clean.js';
import { findMarkers, mayHoldMarker } from './markers.js';
import {
  FULL_KEEP_BYTES,
  HEAD_LINES,
  HIT_CONTEXT_AFTER,
  HIT_CONTEXT_BEFORE,
  MAX_LOG_LINE_BYTES,
  MAX_MIDDLE_LINES,
  TAIL_BYTES,
  TAIL_LINES,
} from '../limits.js';

/** A fold / section boundary of a CI that hides its markers in escape sequences (GitLab, Travis). */
export interface SectionMarker {
  n: number;
  kind: 'start' | 'end';
  name: string;
  ci: 'gitlab' | 'travis';
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
}

/**
 * Bytes that make a line worth keeping from the middle of a huge log. They are searched in the raw
 * bytes before anything is decoded (ripgrep's literal prefilter, in spirit). Needles whose first byte is
 * rare are cheap; each common-first-byte needle costs a full pass (measured: 'panic', 'ailed', 'section_'
 * cost 0.6 s per GB each), so the list stays short; the tail window catches the rest.
 */
const NEEDLES = ['rror', 'RROR', 'FAIL', '##[', 'xception', 'Killed', 'fatal'].map((s) => Buffer.from(s));

/**
 * Reads a log stream once and keeps what diagnosis needs. Logs up to FULL_KEEP_BYTES are kept whole;
 * past that the scan keeps the head, the tail, and error-looking lines (with context) from the middle,
 * so memory stays bounded whatever the size.
 */
export async function scanLog(chunks: AsyncIterable<Buffer>, state: { capped: boolean } = { capped: false }): Promise<LogScan> {
  const scanner = new Scanner();
  for await (const chunk of chunks) scanner.push(chunk);
  return scanner.finish(state.capped);
}

class Scanner {
  private bytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private huge = false;
  // Huge-mode state.
  private n = 0;
  private carry: Buffer | null = null;
  private carryOverflow = false;
  private readonly kept: LogLine[] = [];
  private readonly sections: SectionMarker[] = [];
  private middleDropped = false;
  private tail: { buf: Buffer; firstLine: number }[] = [];
  private tailBytes = 0;
  private keepAfter = 0;
  private readonly recent: { start: number; end: number; n: number }[] = [];
  private lastKeptN = 0;

  push(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (!this.huge) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      if (this.pendingBytes <= FULL_KEEP_BYTES) return;
      this.huge = true;
      const held = this.pending;
      this.pending = [];
      for (const c of held) this.scanChunk(c);
      return;
    }
    this.scanChunk(chunk);
  }

  finish(capped: boolean): LogScan {
    if (!this.huge) return this.finishWhole(capped);
    if (this.carry && this.carry.length) {
      // The last line had no newline.
      this.addTail(this.carry, this.n + 1);
      this.n++;
      this.carry = null;
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
    const text = cleanLine(raw) + (cut ? ` … [line cut at ${MAX_LOG_LINE_BYTES} bytes]` : '');
    return { n, text };
  }

  /** Records every marker on the line: one line can end a fold and start the next. */
  private noteSection(raw: string, n: number): void {
    this.sections.push(...findMarkers(raw, n));
  }

  /** Huge mode: walk the newlines of one chunk, keeping head lines, needle hits and their context. */
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
      this.n++;
      // The line that straddled the chunk border belongs to the tail window like any other line.
      this.addTail(line, this.n);
      const hit = hasNeedle(line, 0, line.length);
      if (this.n <= HEAD_LINES || hit || this.keepAfter > 0) this.keepLine(line, 0, line.length, this.n, hit);
      pos = nl + 1;
    }
    const lastNl = chunk.lastIndexOf(10);
    if (lastNl < pos) {
      this.appendCarry(chunk.subarray(pos));
      return;
    }
    const body = chunk.subarray(pos, lastNl + 1);
    this.addTail(body, this.n + 1);
    const hits = findHits(body);
    let h = 0;
    let start = 0;
    const recent = this.recent;
    while (start < body.length) {
      const end = body.indexOf(10, start);
      this.n++;
      let hit = false;
      while (h < hits.length && hits[h]! < end) {
        if (hits[h]! >= start) hit = true;
        h++;
      }
      if (this.n <= HEAD_LINES || this.keepAfter > 0 || hit) {
        if (hit) {
          for (const r of recent) if (r.n > this.lastKeptN) this.keepLine(body, r.start, r.end, r.n, false);
        }
        this.keepLine(body, start, end, this.n, hit);
      } else {
        if (recent.length === HIT_CONTEXT_BEFORE) recent.shift();
        recent.push({ start, end, n: this.n });
      }
      start = end + 1;
    }
    recent.length = 0; // offsets point into this chunk only
    if (lastNl + 1 < chunk.length) this.appendCarry(chunk.subarray(lastNl + 1));
  }

  private keepLine(buf: Buffer, start: number, end: number, n: number, hit: boolean): void {
    if (n <= this.lastKeptN) return;
    this.kept.push(this.decodeLine(buf, start, end, n));
    this.lastKeptN = n;
    if (hit) this.keepAfter = HIT_CONTEXT_AFTER;
    else if (this.keepAfter > 0) this.keepAfter--;
    if (this.kept.length > HEAD_LINES + MAX_MIDDLE_LINES * 1.5) {
      // Failures come late: drop the oldest middle lines, never the head.
      const firstMiddle = this.kept.findIndex((l) => l.n > HEAD_LINES);
      this.kept.splice(firstMiddle, this.kept.length - HEAD_LINES - MAX_MIDDLE_LINES);
      this.middleDropped = true;
    }
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
    while (this.tail.length > 1 && this.tailBytes - this.tail[0]!.buf.length >= TAIL_BYTES) {
      this.tailBytes -= this.tail.shift()!.buf.length;
    }
  }

  private finishHuge(capped: boolean): LogScan {
    // Number the kept tail bytes line by line, then decode only the last TAIL_LINES of them.
    const spans: { n: number; buf: Buffer; start: number; end: number }[] = [];
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
    const lastSpans = spans.slice(-TAIL_LINES);
    const tailStart = lastSpans.length ? lastSpans[0]!.n : this.n + 1;
    const decodedTail = lastSpans.map((x) => this.decodeLine(x.buf, x.start, x.end, x.n));
    const before = this.kept.filter((l) => l.n < tailStart);
    const lines = before.concat(decodedTail);
    return {
      bytes: this.bytes,
      totalLines: this.n,
      lines,
      sections: this.sections.sort((a, b) => a.n - b.n),
      complete: !this.middleDropped && lines.length === this.n,
      capped,
    };
  }
}

function findHits(body: Buffer): number[] {
  const hits: number[] = [];
  for (const nd of NEEDLES) {
    let q = 0;
    while ((q = body.indexOf(nd, q)) !== -1) {
      hits.push(q);
      q += nd.length;
    }
  }
  return hits.sort((a, b) => a - b);
}

function hasNeedle(buf: Buffer, start: number, end: number): boolean {
  const b = buf.subarray(start, end);
  return NEEDLES.some((nd) => b.indexOf(nd) !== -1);
}
