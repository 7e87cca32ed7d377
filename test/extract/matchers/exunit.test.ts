import { describe, expect, it } from 'vitest';
import { exunitMatcher } from '../../../src/extract/matchers/exunit.js';
import { logLines } from '../../helpers/log.js';

describe('exunitMatcher', () => {
  it("reads each failure at its assertion's stacktrace line, code/left/right and the trace as related", () => {
    const log = logLines('fixtures/recorded/exunit/mix-test.log');
    const text = (n: number) => log.find((l) => l.n === n)!.text.trim();
    const signals = exunitMatcher.extract(log);
    expect(signals.map((s) => [s.kind, s.symbol, s.path, s.line, s.message])).toEqual([
      ['test', 'fetches a setting', 'test/slug_test.exs', 17, '** (KeyError) key :min not found in: %{max: 10}'],
      ['test', 'truncates at a word boundary', 'test/slug_test.exs', 14, 'Assertion with == failed left:  "the-quick" right: "the-quick-br"'],
      ['test', 'custom separator', 'test/slug_test.exs', 10, 'Assertion with == failed left:  "a_b_c" right: "a-b-c"'],
    ]);
    expect(signals[1]!.related!.map(text)).toEqual(['test/slug_test.exs:13', 'Assertion with == failed',
      'code:  assert Slug.truncate("the-quick-brown-fox", 12) == "the-quick-br"', 'left:  "the-quick"', 'right: "the-quick-br"',
      'stacktrace:', 'test/slug_test.exs:14: (test)']);
  });

  it('returns nothing for compile output and other tools', () => {
    expect(exunitMatcher.extract(logLines('fixtures/recorded/exunit/mix-compile-undefined.log'))).toEqual([]);
    expect(exunitMatcher.extract(logLines('fixtures/recorded/minitest/minitest.log'))).toEqual([]);
  });
});
