import { describe, expect, it } from 'vitest';
import { phpunitMatcher } from '../../../src/extract/matchers/phpunit.js';
import { logLines } from '../../helpers/log.js';

const H = '/home/runner/work/cart/cart';

describe('phpunitMatcher', () => {
  it('reads each failure block: the test at its test-file line, the message, the whole diff as related', () => {
    const log = logLines('fixtures/recorded/phpunit/phpunit-failures-errors.log');
    const text = (n: number) => log.find((l) => l.n === n)!.text;
    const tests = phpunitMatcher.extract(log).filter((s) => s.kind === 'test');
    expect(tests.map((s) => [s.symbol, s.path, s.line, s.message])).toEqual([
      ['testEmptyCodeIsRejected', `${H}/tests/CartTest.php`, 37, 'InvalidArgumentException: empty discount code'],
      ['testLinesAreSortedBySku', `${H}/tests/CartTest.php`, 18, 'Failed asserting that two arrays are equal.'],
      ['testLabelCountsItems', `${H}/tests/CartTest.php`, 25, 'Failed asserting that two strings are identical.'],
    ]);
    // Header, message, --- Expected / +++ Actual, every diff line, and the location: the block a person pastes.
    expect(tests[1]!.related!.map(text)).toEqual([
      '1) Acme\\Text\\Tests\\CartTest::testLinesAreSortedBySku',
      '--- Expected', '+++ Actual', '@@ @@', ' Array (', "-    'a' => 2", "+    'a' => 3", "     'b' => 1", ' )',
      `${H}/tests/CartTest.php:18`,
    ]);
  });

  it('turns an error raised in src/ into a frame beside the test, and skips the incomplete test', () => {
    const signals = phpunitMatcher.extract(logLines('fixtures/recorded/phpunit/phpunit-failures-errors.log'));
    expect(signals[1]).toMatchObject({ kind: 'frame', path: `${H}/src/Cart.php`, line: 41, weight: 0.6 });
    expect(signals.some((s) => s.symbol === 'testNothingYet')).toBe(false);
    expect(signals).toHaveLength(4);
  });

  it('reads the bare `Failed asserting that false is true.` in an Actions log', () => {
    const [s] = phpunitMatcher.extract(logLines('fixtures/logs/phpunit-truncate-exact-length/log.txt'));
    expect(s).toMatchObject({ kind: 'test', symbol: 'testExactLengthIsUntouched', message: 'Failed asserting that false is true.', line: 35,
      path: '/home/runner/work/phpunit-truncate-exact-length/phpunit-truncate-exact-length/tests/SluggerTest.php' });
  });

  it('returns nothing for other tools', () => {
    expect(phpunitMatcher.extract(logLines('fixtures/logs/rspec-keyerror-in-lib/log.txt'))).toEqual([]);
    expect(phpunitMatcher.extract(logLines('fixtures/recorded/phpunit/php-lint.log'))).toEqual([]);
  });
});
