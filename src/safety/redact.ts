/**
 * Redaction: secrets in a text replaced by `[REDACTED:<kind>]`, newlines kept (so line-aligned callers
 * stay aligned). One finder (find-secrets.ts) with three rule sets: Redline's own shapes, gitleaks'
 * default config (compiled at build time) and secretlint's recommended preset; every writer uses it.
 */
import type { Diagnosis, Finding } from '../types.js';
import { findSecrets, findSecretsAsync } from './find-secrets.js';
import type { Span } from './span.js';

export { shannonEntropy } from './span.js';

/** The result of a redaction pass: the cleaned text and how many secrets were replaced. */
export interface Redacted {
  text: string;
  count: number;
}

/** `text` with `spans` (merged where they overlap) replaced by markers; each keeps its newlines. */
export function applySpans(text: string, spans: readonly Span[]): Redacted {
  if (spans.length === 0) return { text, count: 0 };
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const parts: string[] = [];
  let at = 0;
  let count = 0;
  for (let i = 0; i < sorted.length; ) {
    const first = sorted[i]!;
    let end = first.end;
    for (i++; i < sorted.length && sorted[i]!.start < end; i++) end = Math.max(end, sorted[i]!.end);
    const start = Math.max(first.start, at);
    if (end <= start) continue;
    const cut = text.slice(start, end);
    let newlines = 0;
    for (let k = cut.indexOf('\n'); k !== -1; k = cut.indexOf('\n', k + 1)) newlines++;
    parts.push(text.slice(at, start), `[REDACTED:${first.kind}]`, '\n'.repeat(newlines));
    at = end;
    count++;
  }
  parts.push(text.slice(at));
  return { text: parts.join(''), count };
}

/**
 * Replaces secrets in `text` with `[REDACTED:<kind>]` (own shapes + gitleaks' rules, every view, every
 * window). Never changes the number of lines; placeholders (low entropy) are kept as they are.
 */
export function redactSecrets(text: string): Redacted {
  return applySpans(text, findSecrets(text));
}

/** Redacts a list of lines as one text (so multi-line secrets are seen) and returns as many lines. */
export function redactLines(lines: readonly string[]): { lines: string[]; count: number } {
  if (lines.length === 0) return { lines: [], count: 0 };
  const r = redactSecrets(lines.join('\n'));
  const out = r.text.split('\n');
  if (out.length === lines.length) return { lines: out, count: r.count };
  // Cannot happen (every replacement keeps newlines), but never misalign: fall back to line by line.
  let count = 0;
  const each = lines.map((l) => {
    const x = redactSecrets(l);
    count += x.count;
    return x.text;
  });
  return { lines: each, count };
}

/**
 * Returns a copy of `d` with every string that came from the log or the repo redacted (lists of log
 * lines are redacted as one text, so a private key split over lines is still found).
 */
export function redactDiagnosis(d: Diagnosis): { diagnosis: Diagnosis; count: number } {
  let count = 0;
  const one = (s: string): string => {
    const r = redactSecrets(s);
    count += r.count;
    return r.text;
  };
  const many = (xs: readonly string[]): string[] => {
    const r = redactLines(xs);
    count += r.count;
    return r.lines;
  };
  const findings: Finding[] = d.findings.map((f) => {
    const texts = many(f.evidence.map((e) => e.text));
    return {
      ...f,
      file: one(f.file),
      message: one(f.message),
      ...(f.symbol !== undefined ? { symbol: one(f.symbol) } : {}),
      evidence: f.evidence.map((e, i) => ({ ...e, text: texts[i] ?? '' })),
    };
  });
  const evTexts = many(d.evidence.map((e) => e.text));
  const diagnosis: Diagnosis = {
    ...d,
    findings,
    evidence: d.evidence.map((e, i) => ({ ...e, text: evTexts[i] ?? '' })),
    failingStep: d.failingStep ? { ...d.failingStep, name: one(d.failingStep.name) } : null,
    summary: one(d.summary),
  };
  return { diagnosis, count };
}

/**
 * `redactSecrets` for callers that await (the outgoing channels): the same finder, the same result, but
 * it yields to the event loop between windows, so a big log does not stall a server.
 */
export async function redactSecretsDeep(text: string): Promise<Redacted> {
  return applySpans(text, await findSecretsAsync(text));
}
