import { describe, expect, it } from 'vitest';
import { rankCandidates } from '../../src/locate/rank.js';
import type { Verified } from '../../src/locate/verify.js';
import { parseUnifiedDiff } from '../../src/repo/diff.js';
import type { Signal } from '../../src/types.js';

/** The PR changed line 7 of src/money.ts (and nothing of src/receipt.ts). */
const diff = parseUnifiedDiff(
  ['diff --git a/src/money.ts b/src/money.ts', '--- a/src/money.ts', '+++ b/src/money.ts', '@@ -3 +3,2 @@', '-export function f(a) {', '+export type C = 1;', '+export function f(a, c) {', '@@ -7 +8 @@', '-  x', '+  y', ''].join('\n'),
);

function sig(logLine: number): Signal {
  return { kind: 'diagnostic', path: 'x', line: 1, message: 'm', tool: 'tsc', weight: 0.9, logLine };
}

function v(file: string, line: number, over: Partial<Verified> = {}): Verified {
  return {
    file,
    line,
    cause: 'diagnostic',
    score: 0.9,
    message: 'error',
    signals: [sig(10)],
    notes: [],
    mapped: 'exact',
    confidence: 0.7,
    checks: [],
    ...over,
  };
}

describe('rankCandidates', () => {
  it('puts a diagnostic on a changed line above one on an unchanged line with the same score', () => {
    // The unchanged one is printed first in the log and would win the tie without the diff.
    const unchanged = v('src/receipt.ts', 15, { signals: [sig(3)] });
    const changed = v('src/money.ts', 8, { signals: [sig(9)] });
    expect(rankCandidates([unchanged, changed], diff).map((c) => `${c.file}:${c.line}`)).toEqual(['src/money.ts:8', 'src/receipt.ts:15']);
    expect(rankCandidates([changed, unchanged], diff)[0]).toBe(changed);
    // Without a diff, the log's order settles the tie.
    expect(rankCandidates([changed, unchanged], undefined)[0]).toBe(unchanged);
  });

  it('boosts only lines the PR added, not the rest of the file', () => {
    const inFileUnchanged = v('src/money.ts', 1, { signals: [sig(3)] });
    const changed = v('src/money.ts', 4, { signals: [sig(9)] });
    expect(rankCandidates([inFileUnchanged, changed], diff)[0]).toBe(changed);
  });

  it('does not boost a candidate that came from the diff itself (it is already there because of it)', () => {
    const fromDiff = v('src/money.ts', 8, { cause: 'diff', signals: [sig(9)] });
    const diagnostic = v('src/receipt.ts', 15, { signals: [sig(3)] });
    expect(rankCandidates([fromDiff, diagnostic], diff)[0]).toBe(diagnostic);
  });

  it("boosts a diff candidate the log's own location landed on (merged from a diagnostic on the changed line)", () => {
    const fromDiff = v('src/money.ts', 8, { cause: 'diff', signals: [sig(9)], logLocated: true });
    const diagnostic = v('src/receipt.ts', 15, { signals: [sig(3)] });
    expect(rankCandidates([diagnostic, fromDiff], diff)[0]).toBe(fromDiff);
  });

  it('score first: the changed-line boost does not lift a much weaker candidate', () => {
    const strong = v('src/receipt.ts', 15, { score: 1.5 });
    const weakChanged = v('src/money.ts', 8, { score: 0.5 });
    expect(rankCandidates([weakChanged, strong], diff)[0]).toBe(strong);
  });

  it('breaks ties by confidence, then by the earliest log line, and keeps every candidate', () => {
    const a = v('a.ts', 1, { confidence: 0.6, signals: [sig(1)] });
    const b = v('b.ts', 1, { confidence: 0.8, signals: [sig(5)] });
    const c = v('c.ts', 1, { confidence: 0.8, signals: [sig(2), sig(7)] });
    const d = v('d.ts', 1, { confidence: 0.8, signals: [] });
    const out = rankCandidates([a, d, b, c], undefined);
    expect(out.map((x) => x.file)).toEqual(['c.ts', 'b.ts', 'd.ts', 'a.ts']);
    expect(rankCandidates([], diff)).toEqual([]);
  });
});
