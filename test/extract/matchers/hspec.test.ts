import { describe, expect, it } from 'vitest';
import { hspecMatcher } from '../../../src/extract/matchers/hspec.js';
import { rspecMatcher } from '../../../src/extract/matchers/rspec.js';
import { logLines } from '../../helpers/log.js';

describe('hspecMatcher', () => {
  it('reads a failure at its file:line:col, expected/but got and the rerun line as related', () => {
    const log = logLines('fixtures/recorded/haskell/hspec.log');
    expect(hspecMatcher.extract(log)).toEqual([{ kind: 'test', symbol: 'slugify drops punctuation', message: 'expected: "ab" but got: "a-b"',
      tool: 'hspec', category: 'test', weight: 0.9, logLine: 13, related: [14, 15, 16, 18], path: 'test/Spec.hs', line: 10, column: 21 }]);
    // RSpec's matcher sees the same `Failures:` / `1) …` shape and leaves it to hspec.
    expect(rspecMatcher.extract(log)).toEqual([]);
  });

  it('returns nothing for other tools', () => {
    expect(hspecMatcher.extract(logLines('fixtures/logs/rspec-keyerror-in-lib/log.txt'))).toEqual([]);
  });
});
