/**
 * The one secret finder: every detector (our own shapes, gitleaks' rule set, secretlint's preset) reads the text through every view of it, window by window:
 *
 * - windows: REDACT_WINDOW_CHARS at a time with REDACT_OVERLAP_CHARS of context each side, a match
 *   belonging to the window it starts in. Every pattern's attempt is bounded (no unbounded repeat, see
 *   scripts/re2-to-js.mjs), so a 50 MB line costs time linear in its length, like fifty thousand short ones;
 * - views: the text as printed, as a terminal shows it (ANSI codes and `\r` frames removed), and decoded
 *   (percent-escapes, JSON string escapes); a span found in a view covers the original characters;
 * - base64: a run that decodes to text holding a secret is a secret as a whole.
 */
import { REDACT_OVERLAP_CHARS, REDACT_WINDOW_CHARS } from '../limits.js';
import { findGitleaks } from './gitleaks-detector.js';
import { findOwnPatterns, findPem } from './own-patterns.js';
import { findSecretlint } from './secretlint-detector.js';
import type { Span } from './span.js';
import { base64Runs, cleanView, compose, decodedView, linesView, type View } from './views.js';

const ESCAPED = /%[0-9A-Fa-f]{2}|\\[nrtbf"\\/u]/;

/**
 * The three rule sets, on one text. Where secretlint reports a wider range around a secret another rule
 * set pins exactly (basicauth: the whole `https://user:pw@host`), the exact one is kept: the evidence
 * stays readable (`https://bot:[REDACTED:url-credentials]@example.com`) and the secret is still gone.
 */
function detect(text: string): Span[] {
  const exact = [...findOwnPatterns(text), ...findGitleaks(text)];
  const wide = findSecretlint(text).filter((w) => !exact.some((e) => e.start >= w.start && e.end <= w.end));
  return [...exact, ...wide];
}

/** Base64 runs whose decoded text holds a secret. */
function base64Spans(text: string): Span[] {
  const spans: Span[] = [];
  for (const r of base64Runs(text)) if (detect(r.decoded).length > 0) spans.push({ start: r.start, end: r.end, kind: 'base64' });
  return spans;
}

/** One piece of the work: a slice of the text (as one view) and the offsets where its matches may start. */
export interface Piece {
  text: string;
  /** Original offset of each character of `text` (length text.length + 1). */
  toOriginal: (i: number) => number;
  /** Matches starting at `text` offsets in [from, to) belong to this piece. */
  from: number;
  to: number;
}

const identity = (base: number) => (i: number) => base + i;
const mapped = (v: View, base: number) => (i: number) => base + v.map[Math.min(i, v.map.length - 1)]!;

/** Windows of `text`, each in every view that differs from the plain one. */
export function* pieces(text: string): Generator<Piece> {
  for (let s = 0; s < text.length || s === 0; s += REDACT_WINDOW_CHARS) {
    const lo = Math.max(0, s - REDACT_OVERLAP_CHARS);
    const hi = Math.min(text.length, s + REDACT_WINDOW_CHARS + REDACT_OVERLAP_CHARS);
    const slice = text.slice(lo, hi);
    const from = s - lo;
    const to = Math.min(s + REDACT_WINDOW_CHARS, text.length) - lo;
    yield { text: slice, toOriginal: identity(lo), from, to };
    // The lines with escape codes or `\r`, as a terminal shows them.
    const dirty = linesView(slice, /[\x1b\r]/);
    const cleaned = dirty ? cleanView(dirty.text) : null;
    const clean = dirty && cleaned ? compose(dirty, cleaned) : null;
    if (clean) yield viewPiece(clean, lo, from, to);
    // The lines with percent- or string escapes, decoded (after the ANSI codes are gone).
    for (const base of clean ? [clean, { text: slice, map: null }] : [{ text: slice, map: null }]) {
      const escaped = linesView(base.text, ESCAPED);
      const decoded = escaped ? decodedView(escaped.text) : null;
      if (!escaped || !decoded) continue;
      let v = compose(escaped, decoded);
      if (base.map) v = compose(base as View, v);
      yield viewPiece(v, lo, from, to);
    }
    if (s + REDACT_WINDOW_CHARS >= text.length) break;
  }
}

function viewPiece(v: View, lo: number, from: number, to: number): Piece {
  // The view's offsets where matches may start: the first view character at or after `from`.
  const first = (x: number) => {
    let a = 0;
    let b = v.text.length;
    while (a < b) {
      const m = (a + b) >> 1;
      if (v.map[m]! < x) a = m + 1;
      else b = m;
    }
    return a;
  };
  return { text: v.text, toOriginal: mapped(v, lo), from: first(from), to: first(to) };
}

/** A span of a piece in the original text's offsets (escape codes inside it included). */
export function toOriginalSpan(p: Piece, s: Span): Span {
  return { start: p.toOriginal(s.start), end: p.toOriginal(s.end - 1) + 1, kind: s.kind };
}

/** The spans a piece owns, from `spans` found in its text. */
export function owned(p: Piece, spans: readonly Span[]): Span[] {
  return spans.filter((s) => s.start >= p.from && s.start < p.to).map((s) => toOriginalSpan(p, s));
}

/**
 * The async finder gives the event loop a turn after this much work: a worker's queue lock must be
 * renewed while a 20 MB log is redacted (BullMQ's lock renewal is a timer), and the App keeps serving.
 */
const YIELD_EVERY_MS = 25;

/** `findSecrets`, yielding to the event loop between windows (for big texts on a server). */
export async function findSecretsAsync(text: string): Promise<Span[]> {
  const out: Span[] = findPem(text);
  let since = performance.now();
  for (const p of pieces(text)) {
    out.push(...owned(p, [...detect(p.text), ...base64Spans(p.text)]));
    if (performance.now() - since > YIELD_EVERY_MS) {
      await new Promise((r) => setImmediate(r));
      since = performance.now();
    }
  }
  return out;
}

/** Every secret in `text`, as spans of `text` (may overlap). */
export function findSecrets(text: string): Span[] {
  const out: Span[] = findPem(text);
  for (const p of pieces(text)) out.push(...owned(p, [...detect(p.text), ...base64Spans(p.text)]));
  return out;
}
