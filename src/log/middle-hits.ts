import type { LogLine } from '../types.js';
import { TemplateCounter } from '../evidence/templates.js';
import {
  HIT_CONTEXT_AFTER,
  HIT_CONTEXT_BEFORE,
  MAX_MIDDLE_BYTES,
  MIDDLE_KEYED_HITS_PER_MB,
  MIDDLE_WINDOW_BYTES,
  MAX_MIDDLE_LINES,
  MIDDLE_MARKER_HITS,
  MIDDLE_RARE_HITS,
  MIDDLE_RECENT_HITS,
  MIDDLE_STEP_HITS,
  MIDDLE_EXACT_HITS,
  MIDDLE_SAMPLE_EVERY,
  MIDDLE_SAMPLE_WINDOW,
} from '../limits.js';

/** Hits between refills of the rare pool's tie admissions, per pool slot: a tie costs its context's decoding. */
const RARE_TIE_SPACING = 50;

/** How much the middle of a huge log may hold, whatever the log says (limits.ts; tests pass small ones). */
export interface MiddleBounds {
  /** Lines kept from the middle in all (hits and their context). */
  maxLines: number;
  /** Bytes of cleaned text kept from the middle in all. */
  maxBytes: number;
  /** Hits kept for the rarity of their line template. */
  rareHits: number;
  /** Hits kept from the start of the current step and of the last step that carried a runner error. */
  stepHits: number;
  /** Hits kept nearest the end (just before the tail window). */
  recentHits: number;
  /** Step and error markers (`##[group]Run …`, `##[error]…`) kept: the failing-step finder needs them. */
  markerHits: number;
  /** Context lines kept before and after each hit, and the bytes one hit's window may take. */
  contextBefore: number;
  contextAfter: number;
  windowBytes: number;
  /** File path: hits seen one by one before the rest of the middle is sampled (MIDDLE_EXACT_HITS). */
  exactHits?: number;
  /** File path, past exactHits: one window of `sampleWindow` bytes every `sampleEvery` bytes is templated whole. */
  sampleEvery?: number;
  sampleWindow?: number;
}

export const MIDDLE_BOUNDS: MiddleBounds = {
  maxLines: MAX_MIDDLE_LINES,
  maxBytes: MAX_MIDDLE_BYTES,
  rareHits: MIDDLE_RARE_HITS,
  stepHits: MIDDLE_STEP_HITS,
  recentHits: MIDDLE_RECENT_HITS,
  markerHits: MIDDLE_MARKER_HITS,
  contextBefore: HIT_CONTEXT_BEFORE,
  contextAfter: HIT_CONTEXT_AFTER,
  windowBytes: MIDDLE_WINDOW_BYTES,
  exactHits: MIDDLE_EXACT_HITS,
  sampleEvery: MIDDLE_SAMPLE_EVERY,
  sampleWindow: MIDDLE_SAMPLE_WINDOW,
};

/** What a hit line is to the step structure. */
export type HitMarker = 'step' | 'error' | undefined;

/** One kept error-looking line of the middle with its context lines (filled in by the reader). */
export interface MiddleHit {
  n: number;
  key: number;
  /** The template's count when last looked at (a lower bound of its final count). */
  count: number;
  seq: number;
  marker: HitMarker;
  lines: LogLine[];
  bytes: number;
  /** Classes holding this hit; at 0 it is dropped. */
  holders: number;
  /** Byte offset of the line in the file (the file path reads its context there after the scan). */
  at?: number;
}

/** The counted note on what the middle held and what was dropped (stats and trace). */
export interface MiddleNote {
  /** Error-looking lines seen in the middle. */
  hits: number;
  /** Hits kept (with their context). */
  keptHits: number;
  /** Hits dropped by the bounds. */
  droppedHits: number;
  /** Middle lines kept in all (hits and context). */
  keptLines: number;
  /** The lowest template count among the kept rare hits (for the trace). */
  rarestCount?: number;
  /**
   * True when `hits` (and so `droppedHits`, `unkeyedHits`) is an estimate: past MIDDLE_EXACT_HITS on the
   * file path, the hits between the sample windows are extrapolated from the windows, not counted.
   */
  hitsEstimated?: true;
  /** Hits not templated: past MIDDLE_KEYED_HITS_PER_MB in a dense stretch, one in k was (KeySampler); past MIDDLE_EXACT_HITS on the file path, the hits outside the sample windows (estimated, never read). */
  unkeyedHits?: number;
}

/**
 * Which hits get a template key: all of them up to `perMb` in each MB of the log, then one in k, k from
 * the last MB's density. Masking and counting a line costs ~100 ns; a log saying "error" on each of 14
 * million lines would spend seconds on it, so time stays bounded per MB whatever the log says. The rare
 * pool then sees a sample of a dense stretch; markers and each step's first hits are never sampled.
 */
export class KeySampler {
  private mb = -1;
  private inMb = 0;
  private lastMb = 0;
  private every = 1;
  private i = 0;

  constructor(private readonly perMb = MIDDLE_KEYED_HITS_PER_MB) {}

  /** Whether the hit at this byte offset of the log is keyed. */
  take(offset: number): boolean {
    const mb = Math.floor(offset / 1048576);
    if (mb !== this.mb) {
      if (this.mb !== -1) this.lastMb = mb === this.mb + 1 ? this.inMb : 0;
      this.mb = mb;
      this.inMb = 0;
      this.every = Math.max(1, Math.ceil(this.lastMb / this.perMb));
    }
    this.inMb++;
    if (this.inMb <= this.perMb) return true;
    return ++this.i % this.every === 0;
  }
}

/**
 * The bounded middle of a huge log. Every error-looking line is counted by its template (count-min, a few
 * hundred KB); a bounded few are kept with their context: the first hits of the current step and of
 * the last step that carried a runner error (the failing step's), the step and error markers, the
 * rarest templates, and (offered at the end by the reader) the hits nearest the end. Everything else is
 * dropped and counted. Admission is O(1) for a common line: its count is compared with a threshold.
 */
export class MiddleHits {
  private readonly counter = new TemplateCounter();
  private seq = 0;
  hits = 0;
  /** Hits counted without a template key (the keying budget spent in a dense stretch). */
  unkeyed = 0;
  /** Some hits were estimated, not counted (addUnseen). */
  private estimated = false;
  private step: MiddleHit[] = [];
  private stepFailed = false;
  private failing: MiddleHit[] = [];
  private readonly markers: MiddleHit[] = [];
  private rare: MiddleHit[] = [];
  /** Counts below this enter the rare pool (∞ until the pool first fills). */
  private rareBelow = Infinity;
  private tiesLeft = 0;
  private recent: MiddleHit[] = [];
  private bytes = 0;

  constructor(readonly bounds: MiddleBounds = MIDDLE_BOUNDS) {}

  /**
   * Counts one hit line of the middle; returns a hit to fill with its lines when some class keeps it,
   * null when it is only counted. `key` null: a hit past the keying budget (KeySampler), counted but
   * not templated, so it can be kept only as a marker or one of its step's first hits.
   */
  offer(n: number, key: number | null, marker: HitMarker): MiddleHit | null {
    this.hits++;
    if (key === null) {
      this.unkeyed++;
      if (marker === undefined && this.step.length >= this.bounds.stepHits) return null;
    }
    const count = key === null ? Infinity : this.counter.add(key);
    if (marker === 'step') this.closeStep();
    if (marker === 'error') this.stepFailed = true;
    const toMarkers = marker !== undefined && this.bounds.markerHits > 0;
    const toStep = this.step.length < this.bounds.stepHits;
    // Ties with the pool's commonest enter too, a few per stretch, so that among equally rare lines the
    // newer win (the failure comes late; a preamble's one-off lines must not hold the pool for good).
    if (this.hits % (this.bounds.rareHits * RARE_TIE_SPACING) === 0) this.tiesLeft = this.bounds.rareHits;
    const tie = count === this.rareBelow && this.tiesLeft > 0;
    const toRare = (count < this.rareBelow || tie) && this.bounds.rareHits > 0;
    if (toRare && tie) this.tiesLeft--;
    // The common case (a line like thousands before it) allocates nothing.
    if (!toMarkers && !toStep && !toRare) return null;
    const hit: MiddleHit = { n, key: key ?? 0, count, seq: this.seq++, marker, lines: [], bytes: 0, holders: 0 };
    if (toMarkers) {
      this.hold(hit, this.markers);
      if (this.markers.length > this.bounds.markerHits) this.release(this.markers.shift()!);
    }
    if (toStep) this.hold(hit, this.step);
    if (toRare) {
      this.hold(hit, this.rare);
      if (this.rare.length >= 2 * this.bounds.rareHits) this.rerankRare();
    }
    return hit;
  }

  /** Hits never read (the sampled middle of the file path): in the note, never kept; `estimated` when not counted exactly. */
  addUnseen(count: number, estimated = false): void {
    this.hits += count;
    this.unkeyed += count;
    if (estimated) this.estimated = true;
  }

  /** A marker seen in the head (kept there anyway): the step state still follows it. */
  mark(marker: HitMarker): void {
    if (marker === 'step') this.closeStep();
    if (marker === 'error') this.stepFailed = true;
  }

  /** A hit nearest the end, offered by the reader after the scan (newest last); null when not kept. */
  offerRecent(n: number, key: number): MiddleHit | null {
    if (this.bounds.recentHits <= 0) return null;
    const hit: MiddleHit = { n, key, count: this.counter.count(key), seq: this.seq++, marker: undefined, lines: [], bytes: 0, holders: 0 };
    this.hold(hit, this.recent);
    if (this.recent.length > this.bounds.recentHits) this.release(this.recent.shift()!);
    return hit;
  }

  /** Adds one cleaned line to a kept hit (the hit line itself or its context). */
  addLine(hit: MiddleHit, line: LogLine): void {
    if (hit.holders === 0) return;
    hit.lines.push(line);
    const b = line.text.length + 1;
    hit.bytes += b;
    this.bytes += b;
    // The byte bound holds while scanning too: the commonest rare hits go first, then the oldest markers.
    while (this.bytes > this.bounds.maxBytes * 2 && this.shedOne()) {}
  }

  /** The hits held now, each once, in log order (the file path fills their context after the scan). */
  heldHits(): MiddleHit[] {
    const all = new Set([...this.failing, ...this.step, ...this.markers, ...this.rare, ...this.recent]);
    return [...all].filter((h) => h.holders > 0).sort((a, b) => a.n - b.n);
  }

  /** Whether the hit is held by a class other than the markers (it is worth its context). */
  wantsContext(hit: MiddleHit): boolean {
    return hit.holders > (this.markers.includes(hit) ? 1 : 0);
  }

  /** Whether a kept hit is still held (a reader stops filling a dropped one). */
  held(hit: MiddleHit): boolean {
    return hit.holders > 0;
  }

  /**
   * The middle's lines within the bounds, in priority order: the failing step's hits, the current step's,
   * the markers, the hits nearest the end, then the rarest; lines shared by windows are counted once.
   */
  finish(): { lines: LogLine[]; note: MiddleNote } {
    const rare = this.rare
      .map((h) => ((h.count = this.counter.count(h.key)), h))
      .sort((a, b) => a.count - b.count || b.seq - a.seq)
      .slice(0, this.bounds.rareHits);
    const markers = [...this.markers].reverse();
    // The marker lines alone come first (the step finder needs every one), their context last.
    const order: [MiddleHit, boolean][] = [
      ...markers.map((h): [MiddleHit, boolean] => [h, true]),
      ...[...this.failing, ...this.step, ...[...this.recent].reverse(), ...rare, ...markers].map((h): [MiddleHit, boolean] => [h, false]),
    ];
    const byN = new Map<number, LogLine>();
    const keptHits = new Set<number>();
    let bytes = 0;
    for (const [h, lineOnly] of order) {
      if (!lineOnly && keptHits.has(h.n) && !markers.includes(h)) continue;
      const fresh = h.lines.filter((l) => !byN.has(l.n) && (!lineOnly || l.n === h.n));
      const more = fresh.reduce((s, l) => s + l.text.length + 1, 0);
      if (byN.size + fresh.length > this.bounds.maxLines || bytes + more > this.bounds.maxBytes) continue;
      for (const l of fresh) byN.set(l.n, l);
      bytes += more;
      keptHits.add(h.n);
    }
    const lines = [...byN.values()].sort((a, b) => a.n - b.n);
    const note: MiddleNote = { hits: this.hits, keptHits: keptHits.size, droppedHits: Math.max(0, this.hits - keptHits.size), keptLines: lines.length };
    if (this.unkeyed) note.unkeyedHits = this.unkeyed;
    if (this.estimated) note.hitsEstimated = true;
    if (rare.length) note.rarestCount = rare[0]!.count;
    return { lines, note };
  }

  /** A new step starts: the last one's first hits stay only if it carried a runner error. */
  private closeStep(): void {
    if (this.stepFailed) {
      for (const h of this.failing) this.release(h);
      this.failing = this.step;
    } else for (const h of this.step) this.release(h);
    this.step = [];
    this.stepFailed = false;
  }

  private hold(hit: MiddleHit, into: MiddleHit[]): void {
    hit.holders++;
    into.push(hit);
  }

  private release(hit: MiddleHit): void {
    if (--hit.holders > 0) return;
    this.bytes -= hit.bytes;
    hit.lines = [];
    hit.bytes = 0;
  }

  /** Fresh counts for the pool, the rarest `rareHits` kept (newer first among equals), the threshold lowered. */
  private rerankRare(): void {
    for (const h of this.rare) h.count = this.counter.count(h.key);
    this.rare.sort((a, b) => a.count - b.count || b.seq - a.seq);
    for (const h of this.rare.splice(this.bounds.rareHits)) this.release(h);
    this.rareBelow = this.rare.length >= this.bounds.rareHits ? this.rare[this.rare.length - 1]!.count : Infinity;
  }

  private shedOne(): boolean {
    if (this.rare.length) {
      this.rerankRare();
      const worst = this.rare.pop();
      if (worst) {
        this.release(worst);
        this.rareBelow = Math.min(this.rareBelow, worst.count);
        return true;
      }
    }
    if (this.markers.length > 1) {
      this.release(this.markers.shift()!);
      return true;
    }
    if (this.recent.length > 1) {
      this.release(this.recent.shift()!);
      return true;
    }
    return false;
  }
}
