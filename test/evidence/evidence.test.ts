import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { cleanText } from '../../src/log/clean.js';
import { findEvidence, findGenericBlocks, locationsIn, categoryFromBlocks, signalsFromBlocks } from '../../src/evidence/index.js';
import { isConfigFile, namedByFailure } from '../../src/locate/config-files.js';
import type { Signal } from '../../src/types.js';

/**
 * The evidence stage on real logs only: recorded golden logs (fixtures/logs: real prove, php -l, g++),
 * real GitHub Actions logs (fixtures/real-logs, BugSwarm, BSD-3) and a real Travis log (fixtures/ci-formats).
 */
const fixture = (p: string) => new URL(`../../fixtures/${p}`, import.meta.url).pathname;
const linesOf = (p: string) => cleanText(readFileSync(fixture(p), 'utf8'));
const textAt = (p: string) => {
  const lines = linesOf(p);
  return (n: number) => lines[n - 1]!.text;
};

describe('the generic finder (no matcher knows the tool)', () => {
  it('quotes Test::More’s failure as one block: the failed test, where, got and expected (prove)', () => {
    const lines = linesOf('logs/perl-prove-discount/log.txt');
    const sel = findEvidence({ lines, signals: [], category: 'unknown' });
    const at = textAt('logs/perl-prove-discount/log.txt');
    const block = sel.blocks.find((b) => /Failed test 'bulk discount/.test(at(b.header)));
    expect(block, 'the Test::More block').toBeDefined();
    expect(block!.kind).toBe('assertion');
    expect(block!.source).toBe('generic');
    const quoted = sel.lines.filter((l) => l.line >= block!.start && l.line <= block!.end).map((l) => l.text.trim());
    expect(quoted).toEqual(expect.arrayContaining(["#   at t/price.t line 8.", "#          got: '100'", "#     expected: '80'"]));
    expect(categoryFromBlocks(sel.blocks, (b) => sel.lines.filter((l) => l.line >= b.start && l.line <= b.end).map((l) => l.text).join('\n'))).toBe('test');
  });

  it('reads `at FILE line N` inside the block as the failing test’s location', () => {
    const lines = linesOf('logs/perl-prove-discount/log.txt');
    const sel = findEvidence({ lines, signals: [], category: 'unknown' });
    const signals = signalsFromBlocks(sel.blocks, lines, 'test');
    expect(signals).toContainEqual(expect.objectContaining({ path: 't/price.t', line: 8, tool: 'evidence' }));
  });

  it('finds PHP’s parse error and its location, `in FILE on line N` (php -l)', async () => {
    const d = await diagnose({ log: fixture('logs/php-lint-parse-error/log.txt') });
    expect(d.category).toBe('compile');
    expect(d.evidence[0]!.text).toMatch(/^PHP Parse error: +syntax error/);
    expect(d.findings[0]).toMatchObject({ file: 'src/Cart.php', line: 13 });
  });

  it('reads an assert() failure of a C++ test as a test failure at its file:line (g++)', async () => {
    const d = await diagnose({ log: fixture('logs/cpp-header-only-assertion/log.txt') });
    expect(d.category).toBe('test');
    expect(d.evidence.map((e) => e.text)).toContainEqual(expect.stringContaining("Assertion `rb.pop(v) && v == 4' failed."));
    // make's `*** [Makefile:4: test] Aborted` is the echo of the exit: never a pin.
    expect(d.findings.map((f) => f.file)).not.toContain('Makefile');
    expect(d.findings[0]).toMatchObject({ file: 'tests/test_ringbuf.cpp', line: 15 });
  });

  it('puts a unittest traceback under its `FAIL:` title across the rule of dashes (Travis, ci-formats)', () => {
    const p = 'ci-formats/travis-bugswarm-113007194.log';
    const at = textAt(p);
    const blocks = findGenericBlocks({ lines: linesOf(p) });
    const tb = blocks.find((b) => /^FAIL: test_repository_package_names/.test(at(b.header)));
    expect(tb, 'the FAIL: block').toBeDefined();
    expect(at(tb!.end)).toMatch(/^AssertionError: Lists differ/);
  });

  it('treats a template repeated across the step as noise: the first of like lines only', () => {
    const p = 'real-logs/gradle-2063953546-orig.log';
    const lines = linesOf(p);
    const sel = findEvidence({ lines, signals: [], category: 'unknown' });
    const headers = sel.blocks.map((b) => lines[b.header - 1]!.text);
    const again = headers.filter((h) => h === 'FunctionalDownloadTest > downloadExtensionShouldNotFailTask() FAILED');
    expect(again.length).toBeLessThanOrEqual(1);
  });

  it('favours blocks a passing run did not print when the passing-log diff says which lines are new', () => {
    const p = 'logs/perl-prove-discount/log.txt';
    const lines = linesOf(p);
    // Say only the summary is new: the Test::More block (printed by the passing run too, by this claim) gives way.
    const summary = lines.find((l) => l.text === 'Test Summary Report')!.n;
    const newLines = new Set(lines.filter((l) => l.n >= summary).map((l) => l.n));
    const sel = findEvidence({ lines, signals: [], category: 'unknown', newLines });
    expect(sel.lines.some((l) => /Failed test 'bulk/.test(l.text))).toBe(false);
    expect(sel.lines.some((l) => l.text === 'Test Summary Report')).toBe(true);
  });
});

describe('matcher blocks and the bound', () => {
  it('widens a jest failure to its whole block and stays within 40 lines and 6 blocks (real jest log)', async () => {
    const d = await diagnose({ log: fixture('real-logs/javascript-jest-2320994299.log') });
    expect(d.evidence.length).toBeLessThanOrEqual(40);
    expect(d.evidenceBlocks.length).toBeLessThanOrEqual(6);
    const texts = d.evidence.map((e) => e.text);
    // The test's title, the assertion and its diff, the code frame: one block, not lone lines.
    expect(texts).toContainEqual(expect.stringContaining('● output as stream when "-" is specified'));
    expect(texts).toContainEqual(expect.stringContaining('expect(received).toEqual(expected)'));
    expect(texts).toContainEqual(expect.stringContaining("> 85 |   expect(stdout).toEqual('<svg/>');"));
    const b = d.evidenceBlocks.find((x) => x.start <= 704 && x.end >= 718);
    expect(b).toMatchObject({ source: 'matcher' });
    // The coverage table printed after it is not part of it.
    expect(texts.some((t) => /^-+\|-+/.test(t))).toBe(false);
  });
});

describe('location forms', () => {
  it('reads each form as real tools print it', () => {
    expect(locationsIn('  File "/home/travis/build/wbond/package_control_channel/tests/test.py", line 271, in _test')).toEqual([
      { path: '/home/travis/build/wbond/package_control_channel/tests/test.py', line: 271 },
    ]);
    expect(locationsIn('victory-bar: [types.create-lib] src/v37/victory-bar.stories.tsx(4,26): error TS2307: Cannot find module')).toEqual([
      { path: 'src/v37/victory-bar.stories.tsx', line: 4, column: 26 },
    ]);
    expect(locationsIn('#   at t/price.t line 8.')).toEqual([{ path: 't/price.t', line: 8 }]);
    expect(locationsIn('PHP Parse error:  syntax error, unexpected token "}" in src/Cart.php on line 13')).toEqual([{ path: 'src/Cart.php', line: 13 }]);
    expect(locationsIn("test_ringbuf: tests/test_ringbuf.cpp:15: void wraps_around(): Assertion `rb.pop(v) && v == 4' failed.")).toEqual([
      { path: 'tests/test_ringbuf.cpp', line: 15 },
    ]);
    expect(locationsIn('[info] [error]     at basic.FooTest.failingTest(FooTest.java:22)')).toEqual([{ path: 'FooTest.java', line: 22 }]);
  });

  it('does not read hosts, ports, times or URLs as locations', () => {
    expect(locationsIn('2022-06-22T18:58:23.5495094Z Summary of all failing tests')).toEqual([]);
    expect(locationsIn('Logs:              https://app.netlify.com/sites/cowid/deploys/62b4f1cb0a58810583290ac4')).toEqual([]);
    expect(locationsIn('connect ECONNREFUSED 127.0.0.1:5432')).toEqual([]);
  });
});

describe('workflow, lock and config files', () => {
  it('knows them, and not the manifests a dependency failure is rightly pinned on', () => {
    for (const f of ['.github/workflows/ci.yml', 'yarn.lock', 'CMakeLists.txt', 'cmake/deps.cmake', 'phpunit.xml.dist', '.gitignore', 'tsconfig.json']) expect(isConfigFile(f), f).toBe(true);
    for (const f of ['package.json', 'pom.xml', 'go.mod', 'Cargo.toml', 'src/ci.ts', 'include/ringbuf/ringbuf.hpp']) expect(isConfigFile(f), f).toBe(false);
  });

  it('counts one as named only when a located signal or the evidence names it', () => {
    const s: Signal = { kind: 'diagnostic', path: '/home/runner/work/x/x/CMakeLists.txt', line: 12, message: 'CMake Error', weight: 1, logLine: 3 };
    expect(namedByFailure('CMakeLists.txt', [s], [])).toBe(true);
    expect(namedByFailure('.github/workflows/ci.yml', [s], ['Error: Process completed with exit code 1.'])).toBe(false);
    expect(namedByFailure('package-lock.json', [], ['npm ERR! `npm ci` can only install packages when your package.json and package-lock.json are in sync.'])).toBe(true);
  });
});
