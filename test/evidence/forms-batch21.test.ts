import { describe, expect, it } from 'vitest';
import { signalsFromBlocks } from '../../src/evidence/index.js';
import { locationsIn } from '../../src/evidence/read-locations.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Place and category rules read off the twenty-first batch of unseen registry toolchains' recorded output. */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number): Block => ({ start, end, header: start, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });
const recorded = (c: string, has: string) => lines(c).find((l) => l.text.includes(has))!.text;
const signalsAt = (c: string, has: string) => {
  const n = lines(c).find((l) => l.text.includes(has))!.n;
  return signalsFromBlocks([block(n, n)], lines(c), 'unknown').filter((s) => s.line !== undefined).map((s) => `${s.path}:${s.line}`);
};

describe('places', () => {
  it("reads a file and its place together in parentheses (acorn's CLI)", () => {
    expect(locationsIn(recorded('acorn-missing-plus-etag-entitytag', 'Unexpected token ('))).toEqual([{ path: 'index.js', line: 57, column: 32 }]);
  });

  it("places a fileless `at L:C` after a fault word in the step's file (json5), not a clock's time", () => {
    expect(signalsAt('json5-missing-comma-range-parser-package', 'invalid character')).toContain('package.json:12');
    expect(locationsIn('Build started at 10:15')).toEqual([]);
  });
});

describe('categories', () => {
  it("a doc comment's @param naming no parameter is lint (TypeDoc)", () => {
    // TypeDoc 0.28's line as recorded in fixtures/logs/typedoc-param-name-mismatch-ts-dedent (commit a9e3591; the case
    // left the golden set, which asks every case to be located: its report names no place)
    const report = '[warning] The signature dedent has an @param with name "template", which was not used';
    expect(category(`${report}\n[warning] Found 0 errors and 1 warnings`)).toBe('lint');
  });

  it("a reader's quoted character it could not take, at its place, is compile (json5)", () => {
    expect(category(recorded('json5-missing-comma-range-parser-package', 'invalid character'))).toBe('compile');
  });
});
