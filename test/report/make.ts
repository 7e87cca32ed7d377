import type { Diagnosis, Finding } from '../../src/types.js';

/** A located compile diagnosis with one strong finding; override any field. */
export function located(over: Partial<Diagnosis> = {}, top: Partial<Finding> = {}): Diagnosis {
  return {
    version: 2,
    status: 'located',
    category: 'compile',
    findings: [
      {
        file: 'src/a.ts',
        line: 12,
        column: 5,
        message: "Type 'string' is not assignable to type 'number'.",
        confidence: 0.9234,
        cause: 'diagnostic',
        evidence: [{ line: 120, text: "src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'." }],
        ...top,
      },
    ],
    evidence: [
      { line: 119, text: '> tsc -p .' },
      { line: 120, text: "src/a.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'." },
    ],
    failingStep: { name: 'Build', startLine: 100, endLine: 130 },
    summary: 'tsc reported a type error at src/a.ts:12.',
    stats: { bytes: 5000, lines: 130, signals: 3, candidates: 2, ms: 42 },
    ...over,
  };
}

/** A no-location infra diagnosis. */
export function noLocation(over: Partial<Diagnosis> = {}): Diagnosis {
  return {
    version: 2,
    status: 'no-location',
    category: 'infra',
    findings: [],
    evidence: [{ line: 7, text: '##[error]The runner has received a shutdown signal.' }],
    failingStep: null,
    summary: 'The runner was shut down; nothing in the repo to point at.',
    stats: { bytes: 300, lines: 8, signals: 1, candidates: 0, ms: 3 },
    ...over,
  };
}

/** Deterministic pseudo-random text from `alphabet` (so no secret-shaped literal sits in the repo). */
export function randomText(n: number, alphabet: string, seed = 7): string {
  let x = seed >>> 0;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    s += alphabet[(x >>> 8) % alphabet.length];
  }
  return s;
}

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A tiny source file: line i is `line i`, line 12 holds the error. */
export function sourceFile(): string[] {
  return Array.from({ length: 20 }, (_, i) => (i === 11 ? "const total: number = 'oops';" : `line ${i + 1}`));
}
