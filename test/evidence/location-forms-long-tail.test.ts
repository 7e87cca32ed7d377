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

  it("reads GNU's diagnostic header whatever the file's extension: `file:line.col-col:`, `prog:file:line:`, `ERROR: file:line:col:`", () => {
    expect(locationsIn(logLine('bison-rule-value-out-of-range-calc', 2))).toEqual([{ path: 'calc.y', line: 58, column: 24 }]);
    expect(locationsIn(logLine('valac-return-type-arraylist', 0))).toEqual([{ path: 'gee/arraylist.vala', line: 107, column: 5 }]);
    expect(locationsIn(logLine('m4-include-typo-loop', 0))).toEqual([{ path: 'm4/loop.m4', line: 11 }]);
    expect(locationsIn(logLine('iverilog-unbound-reg-clbff', 0))).toEqual([{ path: 'rtl/clbff.v', line: 77 }]);
    expect(locationsIn(logLine('cobc-undefined-data-item-week-day', 0))).toEqual([{ path: 'week-day/week-day.cob', line: 67 }]);
    expect(locationsIn(logLine('swipl-syntax-error-base32', 0))).toEqual([
      { path: '/home/runner/work/swipl-syntax-error-base32/swipl-syntax-error-base32/prolog/base32.pl', line: 114, column: 5 },
    ]);
  });

  it('does not read a host and port, or an unlisted extension away from the line start, as a location', () => {
    expect(locationsIn('registry.npmjs.org:443: connect ECONNREFUSED')).toEqual([]);
    expect(locationsIn('api.example.io:8443: timed out')).toEqual([]);
    expect(locationsIn('see notes.v:12: for more')).toEqual([]);
  });

  it("pins the first of a tool's reports in a block, not the last (ChkTeX's two warnings, the header being the second)", () => {
    const lines = logLines('fixtures/logs/chktex-unmatched-paren-typestate/log.txt');
    const s = signalsFromBlocks([{ start: 1, end: 4, header: 4, kind: 'diagnostic', score: 1, why: [], source: 'generic' } satisfies Block], lines, 'lint');
    const w = (line: number) => s.find((x) => x.path === 'manual/typestate-checker.tex' && x.line === line)!.weight;
    expect(w(46)).toBeGreaterThan(w(57));
  });

  it("gives a report that names no file (HTML Tidy's `line N column M - Error:`) the one file the step's command names", () => {
    const lines = logLines('fixtures/logs/tidy-unknown-element-quick-start/log.txt');
    const at = lines.find((l) => l.text.includes('is not recognized'))!.n;
    const s = signalsFromBlocks([{ start: at, end: at + 2, header: at, kind: 'diagnostic', score: 1, why: [], source: 'generic' } satisfies Block], lines, 'lint');
    expect(s).toMatchObject([{ path: 'docs/quick-start.html', line: 54, column: 18, tool: 'evidence' }]);
  });

  it("reads Graphviz's `Error: file: … in line N` and GNU make's `Makefile:N: ***` (a build file without an extension)", () => {
    expect(locationsIn(logLine('dot-unclosed-attribute-list-pip-deps', 0))).toEqual([{ path: 'docs/html/topics/deps.dot', line: 11 }]);
    expect(locationsIn(logLine('make-missing-separator-rpcalc', 1))).toEqual([{ path: 'Makefile', line: 13 }]);
    expect(locationsIn('Error: see foo: the value in line 3')).toEqual([]);
  });

  it("gives jq's file-less `at line N, column M` the file of the step's command", () => {
    const lines = logLines('fixtures/logs/jq-missing-comma-bottleneck-package/log.txt');
    const at = lines.find((l) => l.text.includes('parse error'))!.n;
    const s = signalsFromBlocks([{ start: at, end: at, header: at, kind: 'diagnostic', score: 1, why: [], source: 'generic' } satisfies Block], lines, 'compile');
    expect(s).toMatchObject([{ path: 'package.json', line: 10, column: 10 }]);
  });

  it("takes the report just above a block that only restates it (Docutils' `Exiting due to level-3`)", () => {
    const lines = logLines('fixtures/logs/docutils-unknown-target-pathspec-readme/log.txt');
    const s = signalsFromBlocks([{ start: 2, end: 2, header: 2, kind: 'diagnostic', score: 1, why: [], source: 'generic' } satisfies Block], lines, 'compile');
    expect(s).toMatchObject([{ path: 'README.rst', line: 5, logLine: 1 }]);
  });

  it("passes over hedged reports for a block's first failure (lacheck's `possible unwanted space`)", () => {
    const lines = logLines('fixtures/logs/lacheck-mismatched-end-reflection-rules/log.txt');
    const s = signalsFromBlocks([{ start: 2, end: 6, header: 2, kind: 'diagnostic', score: 1, why: [], source: 'generic' } satisfies Block], lines, 'lint');
    const top = [...s].sort((a, b) => b.weight - a.weight)[0]!;
    expect(top).toMatchObject({ line: 46 });
  });

  it("reads luac's `(to close 'function' at line N)` as the same file's line, and puts it before the end of file the report is placed at", () => {
    const lines = logLines('fixtures/logs/luac-missing-end-penlight-set/log.txt');
    const s = signalsFromBlocks([{ start: 1, end: 1, header: 1, kind: 'diagnostic', score: 1, why: [], source: 'generic' } satisfies Block], lines, 'compile');
    const w = (line: number) => s.find((x) => x.path === 'lua/pl/Set.lua' && x.line === line)!.weight;
    expect(w(75)).toBeGreaterThan(w(222));
  });
});
