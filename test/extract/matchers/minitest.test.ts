import { describe, expect, it } from 'vitest';
import { minitestMatcher } from '../../../src/extract/matchers/minitest.js';
import { logLines } from '../../helpers/log.js';

describe('minitestMatcher', () => {
  it('reads an Error block: the test at its trace entry in the test file, lib frames, the block as related', () => {
    const log = logLines('fixtures/recorded/minitest/minitest.log');
    const signals = minitestMatcher.extract(log);
    expect(signals[0]).toEqual({ kind: 'test', symbol: 'test_sum_of_items', message: 'KeyError: key not found: :cents', tool: 'minitest',
      category: 'test', weight: 0.9, logLine: 11, related: [9, 10, 12, 13, 14, 15, 16], path: 'test/test_money.rb', line: 20 });
    expect(signals.slice(1, 5).map((s) => [s.kind, s.line, s.symbol, s.weight])).toEqual([
      ['frame', 17, 'fetch', 0.6], ['frame', 17, 'sum', 0.6], ['frame', 17, 'map', 0.6], ['frame', 17, 'sum', 0.6],
    ]);
    expect(signals[1]!.path).toBe('/home/runner/work/money/money/lib/money.rb');
  });

  it('reads a Failure block at its [file:line], Expected/Actual as the message', () => {
    const signals = minitestMatcher.extract(logLines('fixtures/recorded/minitest/minitest.log'));
    expect(signals[5]).toMatchObject({ symbol: 'test_format_thousands', path: 'test/test_money.rb', line: 12,
      message: 'Expected: "1.000,00 EUR" Actual: "1000,00 EUR"', logLine: 20, related: [18, 19, 21] });
    expect(signals).toHaveLength(6);
  });

  it('returns nothing for other Ruby tools', () => {
    expect(minitestMatcher.extract(logLines('fixtures/logs/rspec-keyerror-in-lib/log.txt'))).toEqual([]);
    expect(minitestMatcher.extract(logLines('fixtures/recorded/rubocop/rubocop.log'))).toEqual([]);
  });
});
