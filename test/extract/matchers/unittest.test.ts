import { describe, expect, it } from 'vitest';
import { unittestMatcher } from '../../../src/extract/matchers/unittest.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const ROOT = '/home/runner/work/unittest-error-missing-column/unittest-error-missing-column';

describe('unittestMatcher', () => {
  it('reads a FAIL block: the test frame, the assertion line and the diff under it', () => {
    const root = '/home/runner/work/unittest-fail-duration-format/unittest-fail-duration-format';
    expect(unittestMatcher.extract(log('unittest-fail-duration-format'))).toEqual([
      {
        kind: 'test',
        symbol: 'tests.test_report.SummarizeTest.test_slowest_first',
        path: `${root}/tests/test_report.py`,
        line: 21,
        message:
          "AssertionError: Lists differ: ['build: 1h 62m', 'unit: 10m 40s', 'lint: 1m 35s'] != ['build: 1h 02m', 'unit: 10m 40s', 'lint: 1m 35s']",
        tool: 'unittest',
        category: 'test',
        weight: 0.9,
        logLine: 12,
        // "First differing element 0:", the two values, and the -/?/+/? ndiff lines; blank lines left out.
        related: [14, 15, 16, 18, 19, 21, 22],
      },
    ]);
  });

  it('reads every ERROR block of an Actions log, each pinned to its own test line', () => {
    const signals = unittestMatcher.extract(log('unittest-error-missing-column'));
    expect(signals.map((s) => [s.symbol, s.path, s.line, s.message, s.logLine])).toEqual([
      ['tests.test_book.LoadTest.test_balance', `${ROOT}/tests/test_book.py`, 18, 'IndexError: list index out of range', 34],
      ['tests.test_book.LoadTest.test_by_currency', `${ROOT}/tests/test_book.py`, 22, 'IndexError: list index out of range', 52],
      [
        'tests.test_book.LoadTest.test_skips_comments_and_blank_lines',
        `${ROOT}/tests/test_book.py`,
        15,
        'IndexError: list index out of range',
        70,
      ],
    ]);
    expect(signals.every((s) => s.kind === 'test' && s.category === 'test')).toBe(true);
  });

  it('returns nothing for other tools', () => {
    for (const c of ['pytest-keyerror-in-source', 'pytest-collect-missing-module', 'mypy-return-optional', 'rspec-keyerror-in-lib']) {
      expect(unittestMatcher.extract(log(c))).toEqual([]);
    }
  });
});
