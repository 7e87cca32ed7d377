import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { locationsIn, signalsFromBlocks } from '../../src/evidence/index.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** The location forms of toolchains that have no matcher, read from their recorded output (fixtures/logs). */
const logLine = (c: string, i: number): string =>
  readFileSync(new URL(`../../fixtures/logs/${c}/log.txt`, import.meta.url), 'utf8').split('\n')[i]!;

describe('location forms of the long tail', () => {
  it("reads bash's `file: line N:` even when the script has no extension", () => {
    expect(locationsIn(logLine('bash-n-missing-then-version-file', 0))).toEqual([{ path: 'libexec/pyenv-version-file', line: 15 }]);
  });

  it("reads JSHint's `file: line N, col M,`", () => {
    expect(locationsIn(logLine('jshint-let-in-es5-ms', 0))).toEqual([{ path: 'index.js', line: 59, column: 3 }]);
  });

  it("reads Nim's `file(N, M) Error:` and Free Pascal's `file.pp(N,M) Error:`", () => {
    const nim = readFileSync(new URL('../../fixtures/logs/nim-let-reassigned-punycode/log.txt', import.meta.url), 'utf8')
      .split('\n').find((l) => l.includes(') Error:'))!;
    expect(locationsIn(nim)).toEqual([{ path: '/home/runner/work/nim-let-reassigned-punycode/nim-let-reassigned-punycode/src/punycode.nim', line: 54, column: 5 }]);
    expect(locationsIn(logLine('fpc-wrong-parameter-count-qsort', 4))).toEqual([{ path: 'qsort.pp', line: 81, column: 3 }]);
  });

  it("reads Perl::Critic's `file: message at line N, column M.`", () => {
    expect(locationsIn(logLine('perlcritic-explicit-return-undef', 1))).toEqual([
      { path: 'lib/Perl/Critic/Policy/ValuesAndExpressions/ProhibitLeadingZeros.pm', line: 66, column: 5 },
    ]);
  });

  it('does not read a bare word before `: line N` as a path', () => {
    expect(locationsIn('error: line 12: unexpected token')).toEqual([]);
    expect(locationsIn('Warning: line 3 of the config is ignored')).toEqual([]);
  });

  it("reads dash's `file: N: Syntax error:` and Tcl's `(file \"x\" line N)`", () => {
    expect(locationsIn(logLine('dash-n-missing-case-terminator-which', 0))).toEqual([{ path: 'bin/which', line: 43 }]);
    expect(locationsIn(logLine('tcl-no-such-variable-parray', 8))).toEqual([{ path: 'tests/parray.tcl', line: 3 }]);
    expect(locationsIn('12:30:45: 3: started')).toEqual([]);
  });

  it('takes the location-only line above a block that names no place (gfortran: location, excerpt, then Error:)', () => {
    const lines = logLines('fixtures/logs/gfortran-implicit-none-renamed-loop/log.txt');
    const s = signalsFromBlocks([{ start: 3, end: 5, header: 5, kind: 'diagnostic', score: 1, why: [], source: 'generic' } satisfies Block], lines, 'compile');
    expect(s).toMatchObject([{ path: 'foo_mod.f90', line: 17, column: 8, logLine: 1, tool: 'evidence' }]);
  });

  it("weighs OCaml's column-less `line 1` below the later line of the same file that the block names", () => {
    const lines = logLines('fixtures/logs/ocamlc-type-error-option-default/log.txt');
    const s = signalsFromBlocks([{ start: 1, end: 9, header: 1, kind: 'diagnostic', score: 1, why: [], source: 'generic' } satisfies Block], lines, 'compile');
    const w = (line: number) => s.find((x) => x.path === 'src/option.ml' && x.line === line)!.weight;
    expect(w(1)).toBeLessThan(w(20));
  });
});
