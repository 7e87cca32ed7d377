import { describe, expect, it } from 'vitest';
import { signalsFromBlocks } from '../../src/evidence/index.js';
import { locationsIn } from '../../src/evidence/read-locations.js';
import { movedLine } from '../../src/evidence/moved-line.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { pythonFormatMatcher } from '../../src/extract/matchers/python-format.js';
import { rustBacktraceMatcher } from '../../src/extract/matchers/frames-rust.js';
import { v8FramesMatcher } from '../../src/extract/matchers/frames-v8.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Place and category rules read off the sixteenth batch of unseen toolchains' recorded output (fixtures/logs). */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });
const signalsOf = (c: string, from: string, to: string) => {
  const b = block(at(c, from), at(c, to));
  return signalsFromBlocks([b], lines(c), 'unknown').filter((s) => s.line !== undefined).map((s) => `${s.path}:${s.line}`);
};

describe('a file, then its place in parentheses', () => {
  it("reads Rollup's `RollupError: index.js (27:17): Expected ')'` and the `index.js (27:17)` over its frame", () => {
    expect(locationsIn("[!] RollupError: index.js (27:17): Expected ')', got '{'")).toEqual([{ path: 'index.js', line: 27, column: 17 }]);
    expect(locationsIn('index.js (27:17)')).toEqual([{ path: 'index.js', line: 27, column: 17 }]);
    expect(signalsOf('rollup-missing-paren-yocto-queue', 'RollupError: index.js', 'RollupError: index.js')).toContain('index.js:27');
  });

  it('needs the space and both numbers: a call or a version in parentheses is no place', () => {
    expect(locationsIn('resolve(index.js) (3 ms)')).toEqual([]);
    expect(locationsIn('built index.js (1.2 kB)')).toEqual([]);
  });
});

describe('a report headed by the code of the rule it broke', () => {
  it("reads ruff's `F821 Undefined name` over its arrowed place as lint", () => {
    expect(category('F821 Undefined name `text_widht`\n   --> src/click/formatting.py:175:12\n    |\n175 |         if text_widht >= 1:\n    |            ^^^^^^^^^^')).toBe('lint');
    expect(category('I001 [*] Import block is un-sorted or un-formatted\n  --> src/click/__init__.py:8:1')).toBe('lint');
  });

  it("leaves a compiler's coded error to its words", () => {
    expect(category("error[E0425]: cannot find value `x` in this scope\n --> src/main.rs:2:5")).not.toBe('lint');
    expect(category("src/a.ts(3,1): error TS2304: Cannot find name 'x'.")).not.toBe('lint');
  });
});

describe('a hunk that moves a line', () => {
  it('is placed where the line stands (the removed one, on the old side), not where it belongs', () => {
    const hunk = ['+from .globals import app_ctx', ' from .globals import current_app', ' from .globals import session', '-from .globals import app_ctx', ' from .signals import x'];
    expect(movedLine(hunk, 18)).toBe(20);
  });

  it('leaves a hunk that opens by removing, or inserts what it does not remove, at its first change', () => {
    expect(movedLine(['-x = 1', '+x = 2'], 5)).toBeUndefined();
    expect(movedLine(['+', ' def f():', '-    pass'], 5)).toBeUndefined();
    expect(movedLine(['+import os', ' import sys'], 5)).toBeUndefined();
  });

  it("places isort's --diff of a moved import at the line the PR added (22)", () => {
    const c = 'isort-check-unsorted-import-flask-helpers';
    const places = pythonFormatMatcher.extract(lines(c)).filter((s) => s.line !== undefined).map((s) => s.line);
    expect(places).toEqual([22]);
  });
});

describe("a template engine's file in parentheses, its place in brackets", () => {
  it("reads Nunjucks' `Template render error: (src/a/template.njk) [Line 27, Column 4]` as a place", () => {
    expect(locationsIn('Template render error: (src/govuk/components/breadcrumbs/template.njk) [Line 27, Column 4]')).toEqual([
      { path: 'src/govuk/components/breadcrumbs/template.njk', line: 27, column: 4 },
    ]);
    expect(locationsIn('(a.njk) [Line 3]')).toEqual([{ path: 'a.njk', line: 3 }]);
  });

  it('reads an unknown tag as the template failing to compile', () => {
    expect(category('Template render error: (a.njk) [Line 27, Column 4]\n  unknown block tag: endfor')).toBe('compile');
    expect(category("Liquid syntax error: Unknown tag 'endfor'")).toBe('compile');
  });
});

describe("a Rust tool's error backtrace under Node", () => {
  it("reads anyhow's `Stack backtrace:` as Rust's, its C runtime frames as library ones, and no V8 frames in it", () => {
    const log = lines('swc-missing-paren-depd-get-stack');
    const rust = rustBacktraceMatcher.extract(log);
    expect(rust.map((s) => s.path)).toContain('./nptl/pthread_create.c');
    expect(rust.every((s) => s.weight <= 0.05)).toBe(true);
    const v8 = v8FramesMatcher.extract(log).map((s) => s.path);
    expect(v8.some((p) => /threadpool\.c|pthread_create|clone3/.test(p!))).toBe(false);
    // swc's own JavaScript frames below stay V8's
    expect(v8.some((p) => p!.includes('@swc/cli'))).toBe(true);
  });

  it("so swc's code frame `,-[index.js:393:1]` places the report", () => {
    expect(signalsOf('swc-missing-paren-depd-get-stack', "x Expected ','", '`----')).toContain('index.js:393');
  });
});

describe('a step named for its linter', () => {
  const byStep = (stepName: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => '  1 error', stepName });
  it('reads a step running xo, or a linter named for what it lints, as lint when its output named nothing', () => {
    expect(byStep('xo index.js')).toBe('lint');
    expect(byStep('stylelint "**/*.css"')).toBe('lint');
    expect(byStep('tslint "src/**/*.ts"')).toBe('lint');
    // words that only contain the letters stay what they were
    expect(byStep('npm run build:xonsh')).toBe('compile');
    expect(byStep('Run tests')).toBe('test');
  });
});
