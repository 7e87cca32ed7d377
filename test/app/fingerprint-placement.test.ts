import { describe, expect, it } from 'vitest';
import { parseUnifiedDiff } from '../../src/repo/diff.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { fallback, place, placeFinding } from '../../src/report/placement.js';
import { fingerprintOf, formatFingerprint, parseFingerprint } from '../../src/report/fingerprint.js';
import type { Diagnosis, Finding } from '../../src/types.js';

const finding = (file: string, line: number, message = "Expected 2 arguments, but got 1."): Finding => ({ file, line, message, confidence: 0.9, cause: 'diagnostic', evidence: [] });
const diagnosis = (f?: Finding): Diagnosis => ({
  version: 2, status: f ? 'located' : 'no-location', category: 'compile', findings: f ? [f] : [], evidence: [],
  failingStep: { name: 'Run npx tsc', startLine: 1, endLine: 9 }, summary: 'tsc failed', stats: { bytes: 1, lines: 1, signals: 1, candidates: 1, ms: 1 },
});

describe('fingerprint', () => {
  const src = { repo: 'Octo/App', job: 'CI / build' };

  it('is stable across re-runs and line moves, and differs by job and by failure', () => {
    const a = fingerprintOf(src, diagnosis(finding('src/a.ts', 15)));
    expect(fingerprintOf({ ...src, repo: 'octo/app' }, diagnosis(finding('src/a.ts', 40)))).toEqual(a);
    expect(fingerprintOf({ ...src, job: 'CI / test' }, diagnosis(finding('src/a.ts', 15))).family).not.toBe(a.family);
    const other = fingerprintOf(src, diagnosis(finding('src/a.ts', 15, 'Cannot find name x.')));
    expect(other.family).toBe(a.family);
    expect(other.failure).not.toBe(a.failure);
    expect(fingerprintOf(src, diagnosis()).failure).toMatch(/^[0-9a-f]{16}$/);
  });

  it('survives renderMarkdown and parses back; bodies without a marker give undefined', () => {
    const fp = fingerprintOf(src, diagnosis(finding('src/a.ts', 15)));
    const body = renderMarkdown(diagnosis(finding('src/a.ts', 15)), { fingerprint: formatFingerprint(fp) });
    expect(parseFingerprint(body)).toEqual(fp);
    expect(parseFingerprint('a normal comment')).toBeUndefined();
    expect(parseFingerprint('<!-- redline:fp=zz.yy -->')).toBeUndefined();
    expect(parseFingerprint(null)).toBeUndefined();
  });
});

describe('placement (DESIGN.md §5)', () => {
  const diff = parseUnifiedDiff(
    ['--- a/src/a.ts', '+++ b/src/a.ts', '@@ -10,3 +10,4 @@ fn', ' ctx', '+added', ' ctx', ' ctx', '--- /dev/null', '+++ b/src/new.ts', '@@ -0,0 +1,2 @@', '+x', '+y'].join('\n'),
  );

  it('tier 1 for a line inside a hunk (added or context), tier 2 for the same file outside, tier 3 elsewhere', () => {
    expect(placeFinding(finding('src/a.ts', 11), diff)).toEqual({ tier: 'line', file: 'src/a.ts', line: 11 });
    expect(placeFinding(finding('src/a.ts', 13), diff)).toEqual({ tier: 'line', file: 'src/a.ts', line: 13 });
    expect(placeFinding(finding('src/a.ts', 14), diff)).toEqual({ tier: 'file', file: 'src/a.ts', line: 14 });
    expect(placeFinding(finding('src/new.ts', 2), diff).tier).toBe('line');
    expect(placeFinding(finding('src/other.ts', 2), diff)).toEqual({ tier: 'annotation', file: 'src/other.ts', line: 2 });
    expect(placeFinding(finding('src/a.ts', 11), undefined).tier).toBe('annotation');
  });

  it('no pin means a plain comment; a refused anchor falls back one tier at a time', () => {
    expect(place(diagnosis(), diff)).toEqual({ tier: 'comment' });
    expect(fallback({ tier: 'line', file: 'f', line: 1 })).toEqual({ tier: 'file', file: 'f', line: 1 });
    expect(fallback({ tier: 'file', file: 'f', line: 1 })).toEqual({ tier: 'annotation', file: 'f', line: 1 });
    expect(fallback({ tier: 'annotation', file: 'f', line: 1 })).toBeUndefined();
  });
});
