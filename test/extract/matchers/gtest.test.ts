import { describe, expect, it } from 'vitest';
import { gtestMatcher } from '../../../src/extract/matchers/gtest.js';
import { ctestMatcher } from '../../../src/extract/matchers/ctest.js';
import { logLines } from '../../helpers/log.js';

const log = logLines('fixtures/logs/gtest-ctest-csv-split/log.txt');
const text = (n: number) => log.find((l) => l.n === n)!.text;

describe('gtestMatcher', () => {
  it('reads `file:line: Failure` inside its [ RUN ] test, the expected/actual lines and [ FAILED ] as related', () => {
    const [s] = gtestMatcher.extract(log);
    expect(s).toMatchObject({ kind: 'test', symbol: 'Split.EmptyFieldsAreKept', line: 13, category: 'test', weight: 0.9,
      path: '/home/runner/work/gtest-ctest-csv-split/gtest-ctest-csv-split/tests/split_test.cpp' });
    expect(s!.message).toBe('Expected equality of these values: split("a,,c,") Which is: { "a", "", "c" }');
    expect(s!.related!.map(text)).toEqual(['Expected equality of these values:', '  split("a,,c,")', '    Which is: { "a", "", "c" }',
      '  (Fields{"a", "", "c", ""})', '    Which is: { "a", "", "c", "" }', '[  FAILED  ] Split.EmptyFieldsAreKept (0 ms)']);
    // The `listed below` summary names the same test: no second signal.
    expect(gtestMatcher.extract(log)).toHaveLength(1);
  });

  it('reads a thrown exception (no location) and two assertions in one test', () => {
    const signals = gtestMatcher.extract(logLines('fixtures/recorded/gtest/gtest-exception.log'));
    expect(signals.map((s) => [s.symbol, s.path, s.line, s.message, s.logLine, s.related])).toEqual([
      ['Net.Connects', undefined, undefined, 'C++ exception with description "connection refused" thrown in the test body.', 6, [7, 8]],
      ['Net.NamesHost', 'net_test.cpp', 14, 'Value of: connect("a").size() == 3 Actual: false Expected: true', 10, [11, 12, 13, 14]],
      ['Net.NamesHost', 'net_test.cpp', 15, 'Expected: (connect("b")) != ("ok:b"), actual: "ok:b" vs "ok:b"', 15, [16, 17]],
    ]);
  });

  it('returns nothing for other tools', () => {
    expect(gtestMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
  });
});

describe('ctestMatcher', () => {
  it('reads the failed test from its result line and the FAILED list, by name only', () => {
    expect(ctestMatcher.extract(log)).toEqual([{ kind: 'test', symbol: 'Split.EmptyFieldsAreKept', message: 'Split.EmptyFieldsAreKept: Failed',
      tool: 'ctest', category: 'test', weight: 0.5, logLine: 41, related: [77] }]);
    expect(text(77)).toBe('\t  2 - Split.EmptyFieldsAreKept (Failed)');
  });

  it('returns nothing for passing tests and other tools', () => {
    expect(ctestMatcher.extract(log.filter((l) => !text(l.n).includes('EmptyFields')))).toEqual([]);
    expect(ctestMatcher.extract(logLines('fixtures/recorded/cmake/missing-module.log'))).toEqual([]);
  });
});
