import { describe, expect, it } from 'vitest';
import { testthatMatcher } from '../../../src/extract/matchers/testthat.js';
import { rCmdCheckMatcher } from '../../../src/extract/matchers/r-cmd-check.js';
import { logLines } from '../../helpers/log.js';

const rec = (f: string) => logLines(`fixtures/recorded/testthat/${f}`);

describe('testthatMatcher', () => {
  it('reads a failure and an error at their test-file lines (under tests/testthat/), the block as related', () => {
    const log = rec('testthat.log');
    const text = (n: number) => log.find((l) => l.n === n)!.text;
    const signals = testthatMatcher.extract(log);
    expect(signals.map((s) => [s.symbol, s.path, s.line, s.logLine])).toEqual([
      ['truncation keeps whole words', 'tests/testthat/test-slug.R', 6, 9],
      ['a missing title is an error', 'tests/testthat/test-slug.R', 10, 15],
    ]);
    expect(signals[0]!.related!.map(text)).toEqual(['truncate_slug("the-quick-brown-fox", 12) (`actual`) not equal to "the-quick" (`expected`).',
      '`actual`:   "the"', '`expected`: "the-quick"']);
    expect(signals[1]!.message).toBe('Error in `strsplit(tolower(title), "[^a-z0-9]+")[[1]]`: subscript out of bounds Backtrace:');
  });

  it('returns nothing for other tools', () => {
    expect(testthatMatcher.extract(logLines('fixtures/recorded/exunit/mix-test.log'))).toEqual([]);
  });
});

describe('rCmdCheckMatcher', () => {
  it('reads the failing check with the quoted test output, and a warning that weighs little', () => {
    const signals = rCmdCheckMatcher.extract(rec('r-cmd-check.log'));
    expect(signals.map((s) => [s.message, s.severity, s.category, s.weight])).toEqual([
      ['checking for missing documentation entries: WARNING', 'warning', 'lint', 0.3],
      ['checking tests: ERROR', 'error', 'test', 0.6],
    ]);
    expect(signals[1]!.related).toHaveLength(17);
  });

  it('returns nothing for other tools', () => {
    expect(rCmdCheckMatcher.extract(rec('testthat.log'))).toEqual([]);
  });
});
