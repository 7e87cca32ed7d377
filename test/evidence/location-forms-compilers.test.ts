import { describe, expect, it } from 'vitest';
import { locationsIn, signalsFromBlocks } from '../../src/evidence/index.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Location forms of compilers and interpreters with no matcher, read from their recorded output (fixtures/logs). */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;

describe('location forms of compilers with no matcher', () => {
  it("reads Hugs' quoted file then its line, `ERROR \"Calendar.hs\":39 - …`", () => {
    const c = 'hugs-undefined-renamed-groups-of-calendar';
    expect(locationsIn(lines(c).find((l) => l.text.startsWith('ERROR'))!.text)).toEqual([{ path: 'Calendar.hs', line: 39 }]);
    expect(locationsIn('said "hello":3 times')).toEqual([]);
  });

  it("gives R's `Error: unexpected symbol in:` (no file, no line) the one file its step's Run command names, and no line", () => {
    const c = 'rscript-unexpected-symbol-sprintf-recursion-demo';
    const n = at(c, 'unexpected symbol');
    const s = signalsFromBlocks([block(n, n + 2)], lines(c), 'compile');
    expect(s).toMatchObject([{ path: 'demo/recursion.R' }]);
    expect(s[0]!.line).toBeUndefined();
  });

  it("reads GNU bc's `file N: message` and Pike's `file:N:Message` (no space after the colon)", () => {
    expect(locationsIn(lines('bc-syntax-error-primes')[0]!.text)).toEqual([{ path: 'primes.b', line: 15 }]);
    expect(locationsIn(lines('pike-undefined-identifier-renamed-param-colors')[0]!.text)).toEqual([{ path: 'Colors.pmod', line: 22 }]);
    expect(locationsIn('took 3 s 12: done')).toEqual([]);
  });

  it("gives SBCL's `(in form starting at line: 45, column: 0 …)` the file its own block names above it", () => {
    const c = 'sbcl-read-error-count-while-split-sequence';
    const s = signalsFromBlocks([block(at(c, 'caught ERROR'), at(c, 'in form starting'))], lines(c), 'compile');
    expect(s).toMatchObject([{ path: expect.stringMatching(/\/list\.lisp$/), line: 45 }]);
  });

  it("gives CHICKEN's `(line 1597) unterminated list, starting in line 1291` the file of the command below, not its output file", () => {
    const c = 'chicken-csc-unterminated-list-take-while-srfi-1';
    const n = at(c, 'unterminated list');
    expect(signalsFromBlocks([block(n, n)], lines(c), 'compile')).toMatchObject([{ path: 'srfi-1-reference.scm', line: 1291 }]);
  });

  it("reads CLISP's `in lines 20..35` as a span, from a header just above the block", () => {
    const c = 'clisp-unbound-renamed-collector-split-sequence';
    const n = at(c, 'declared nor bound');
    expect(signalsFromBlocks([block(n, n + 1)], lines(c), 'compile')).toMatchObject([{ path: expect.stringMatching(/\/vector\.lisp$/), line: 20, endLine: 35 }]);
  });

  it("reads ECL's `Unexpected end of file on #<… vector.lisp>` as the file alone, and nothing of a resolver's report", () => {
    const c = 'ecl-unbalanced-paren-split-vector';
    const n = at(c, 'Internal error');
    const s = signalsFromBlocks([block(n, n + 1)], lines(c), 'compile');
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ path: expect.stringMatching(/\/vector\.lisp$/) });
    expect(s[0]!.line).toBeUndefined();
    expect(signalsFromBlocks([block(n, n + 1)], lines(c), 'dependency')).toEqual([]);
  });

  it("stands a compiler's earlier report of the same form on the same file beside the chosen block's (LDC's line 229 before 321)", () => {
    const c = 'ldc2-param-type-ascii2hex-uri';
    const n = at(c, 'none of the overloads');
    const s = signalsFromBlocks([block(n, n)], lines(c), 'compile');
    const w = (line: number) => s.find((x) => x.line === line)?.weight ?? 0;
    expect(s.find((x) => x.line === 229)!.logLine).toBeLessThan(n);
    expect(w(229)).toBe(w(321));
  });
});
