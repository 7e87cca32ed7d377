import { describe, expect, it } from 'vitest';
import { signalsFromBlocks } from '../../src/evidence/index.js';
import { hunkChangeLine } from '../../src/evidence/read-locations.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/** Place and category rules read off the fourteenth batch of unseen toolchains' recorded output (fixtures/logs). */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });
const signalsOf = (c: string, from: string, to: string) => {
  const b = block(at(c, from), at(c, to));
  return signalsFromBlocks([b], lines(c), 'unknown').filter((s) => s.line !== undefined).map((s) => `${s.path}:${s.line}`);
};

describe('a place heading a diff hunk', () => {
  it("pins rustfmt --check's `Diff in …/src/lib.rs:272:` at its first changed line, below three lines of context", () => {
    const c = 'rustfmt-check-one-line-fn-hex';
    const places = signalsOf(c, 'Diff in ', '+}');
    expect(places[0]).toMatch(/\/src\/lib\.rs:275$/);
  });

  it('counts only context lines, and leaves a place that heads no diff alone', () => {
    const map = (rows: string[]) => new Map(rows.map((t, i) => [i + 1, t] as const));
    expect(hunkChangeLine(1, 10, map(['Diff in src/a.rs:10:', '-fn f() {}', '+fn f() {', '+}']))).toBe(10);
    expect(hunkChangeLine(1, 10, map(['Diff in src/a.rs:10:', ' use x;', '', '-fn f() {}']))).toBe(10);
    // a compiler's header over its source excerpt: no diff
    expect(hunkChangeLine(1, 12, map(['a.c:12:', '   12 | int x', '      |     ^', '-Werror']))).toBe(12);
    // the place does not end the line: a message follows it
    expect(hunkChangeLine(1, 12, map(['a.c:12: error: x', ' y', '-z']))).toBe(12);
    // more context than a hunk carries: not a hunk
    expect(hunkChangeLine(1, 12, map(['x.rs:12:', ' a', ' b', ' c', ' d', '-e']))).toBe(12);
  });
});

describe("a linter's stylish rows under the file's heading", () => {
  it("places unified's vfile-reporter row `48:81-48:106 warning …` in the file named above it (remark-lint)", () => {
    const c = 'remark-lint-undefined-reference-ms';
    expect(signalsOf(c, 'Unexpected reference', 'Unexpected reference')).toContain('readme.md:48');
  });

  it('reads the rows as a lint, though their messages say expected', () => {
    expect(category('readme.md\n48:81-48:106 warning Unexpected reference to undefined definition, expected corresponding definition (`limit`) no-undefined-references remark-lint\n\n⚠ 1 warning')).toBe('lint');
    expect(category('docs/a.yml\n  36:7      error    syntax error: expected <block end>, but found \'<block mapping start>\' (syntax)')).not.toBe('test');
    // an assertion's `expected` with no such rows is still a test's
    expect(category('AssertionError: expected 3 to equal 4')).toBe('test');
  });
});

describe("a spell checker's finding", () => {
  it("reads CSpell's `Unknown word (x)` as lint, where a compiler's unknown name stays compile", () => {
    expect(category('Readme.md:6:20 - Unknown word (charaters) fix: (characters)')).toBe('lint');
    expect(category("src/a.c:3:5: error: unknown type name 'foo'")).toBe('compile');
  });
});

describe('the fourteenth unseen batch end to end', () => {
  const cases: [string, string][] = [
    ['rustfmt-check-one-line-fn-hex', 'rustfmt --check: the change below the hunk\'s context'],
    ['remark-lint-undefined-reference-ms', 'remark-lint: the row under readme.md'],
    ['cspell-unknown-word-escape-html-readme', 'CSpell: an unknown word is lint'],
  ];
  for (const [name, why] of cases) {
    it(`${name}: ${why}`, async () => {
      const r = await evaluateCase(name, diagnoseWithTrace);
      expect(r.top1Line, `${r.diagnosis.findings[0]?.file}:${r.diagnosis.findings[0]?.line}`).toBe(true);
      expect(r.categoryOk).toBe(true);
    });
  }
});
