import { describe, expect, it } from 'vitest';
import { tapMatcher } from '../../../src/extract/matchers/tap.js';
import { logLines } from '../../helpers/log.js';
import { diagnose } from '../../../src/diagnose.js';

const rec = (f: string) => logLines(`fixtures/recorded/tap/${f}`);
const summary = (f: string) => tapMatcher.extract(rec(f)).map((s) => [s.symbol, s.path, s.line, s.logLine]);

describe('tapMatcher', () => {
  it("reads tape's YAML blocks: `at:` pins the assertion, operator/expected/actual are the block", () => {
    const log = rec('tape.log');
    const [first, second] = tapMatcher.extract(log);
    expect(first).toMatchObject({ kind: 'test', symbol: 'twenty plus two', message: 'twenty plus two (expected: 22, actual: 23)',
      path: '/home/runner/work/tap/tap/js/test/tape.js', line: 10, logLine: 5, category: 'test' });
    const text = (n: number) => log.find((l) => l.n === n)!.text.trim();
    expect(first!.related!.slice(0, 5).map(text)).toEqual(['---', 'operator: equal', 'expected: 22', 'actual:   23',
      'at: Test.<anonymous> (/home/runner/work/tap/tap/js/test/tape.js:10:5)']);
    expect(text(first!.related!.at(-1)!)).toBe('...');
    expect(second).toMatchObject({ symbol: 'should be deeply equivalent', line: 11 });
  });

  it("reads node-tap's nested subtests, without the parents' summary `not ok` lines", () => {
    expect(summary('node-tap.log')).toEqual([
      ['twenty plus two', 'test/tap.js', 9, 10],
      ['should be equivalent', 'test/tap.js', 10, 35],
      ["Expected property name or '}' in JSON at position 1", 'lib.js', 2, 79],
    ]);
  });

  it("reads prove's Test::More diagnostics, with or without -v's `not ok` lines", () => {
    expect(summary('prove.log')).toEqual([
      ['large numbers', 't/math.t', 7, 2],
      ['splits on commas', 't/math.t', 8, 7],
    ]);
    // -v prints `not ok` on stdout after the diagnostics on stderr: one failure each, the diagnostics as related.
    const verbose = tapMatcher.extract(rec('prove-verbose.log'));
    expect(verbose.map((s) => [s.symbol, s.path, s.line, s.logLine, s.related])).toEqual([
      ['large numbers', 't/math.t', 7, 15, [2, 3, 4, 5]],
      ['splits on commas', 't/math.t', 8, 16, [7, 8, 9, 10, 11]],
    ]);
  });

  it("reads bats' `(in test file …, line N)`, the innermost function's file first", () => {
    expect(summary('bats.log')).toEqual([
      ['greets by name', 'test/greet.bats', 14, 3],
      ['shouts', 'test/../greet.sh', 8, 6],
    ]);
  });

  it("leaves node's own test runner to node-test, and other tools alone", () => {
    expect(tapMatcher.extract(logLines('fixtures/logs/node-test-tap-duration/log.txt'))).toEqual([]);
    expect(tapMatcher.extract(logLines('fixtures/logs/pytest-keyerror-in-source/log.txt'))).toEqual([]);
  });

  it("takes bats tests failing on one broken command's same error as restatements of the first", () => {
    // pyenv's suite with `pyenv-version-name` misspelt, run by a real Buildbot worker (fixtures/wild/buildbot-bats-pyenv-version).
    const out = tapMatcher.extract(logLines('fixtures/wild/buildbot-bats-pyenv-version/log.txt'));
    // Tests 1-6 and 8 end in `…pyenv-version-nam: command not found`; test 7's `actual: ''` is its own failure.
    expect(out.filter((s) => !s.restatement).map((s) => s.logLine)).toEqual([12, 57]);
    expect(out.filter((s) => s.restatement).length).toBe(6);
  });
});

describe("Perl's `Can't locate Foo/Bar.pm in @INC`", () => {
  it('is the failure of a prove run, a dependency one, pinned to the test file\'s `use` line (Try-Tiny)', async () => {
    const d = await diagnose({ log: 'fixtures/recorded/tap/prove-cant-locate.log' });
    expect(d.category).toBe('dependency');
    expect(d.findings[0]).toMatchObject({ file: 't/erroneous_usage.t', line: 6 });
    expect(d.evidence[0]!.text).toMatch(/^Can't locate Test\/Exception\.pm in @INC \(you may need to install the Test::Exception module\)/);
  });

  it("stays beside the test failure it caused, though the TAP matcher's block outscores it (enbugger)", async () => {
    const d = await diagnose({ log: 'fixtures/wild/plain-perl-enbugger-prove-cant-locate/log.txt' });
    expect(d.evidence.map((e) => e.line).slice(0, 4)).toEqual([2, 4, 5, 6]);
    expect(d.category).toBe('test');
  });
});
