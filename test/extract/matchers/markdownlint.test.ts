import { describe, expect, it } from 'vitest';
import { markdownlintMatcher } from '../../../src/extract/matchers/markdownlint.js';
import { logLines } from '../../helpers/log.js';

describe('markdownlintMatcher', () => {
  it('reads every rule with its line (and column when given)', () => {
    const signals = markdownlintMatcher.extract(logLines('fixtures/recorded/web/markdownlint.log'));
    expect(signals.map((s) => [s.line, s.column, s.symbol])).toEqual([
      [1, undefined, 'MD022/blanks-around-headings'], [2, undefined, 'MD022/blanks-around-headings'], [2, undefined, 'MD022/blanks-around-headings'],
      [7, undefined, 'MD032/blanks-around-lists'], [8, 1, 'MD004/ul-style'], [8, undefined, 'MD032/blanks-around-lists'], [10, 22, 'MD009/no-trailing-spaces'],
    ]);
    expect(signals.every((s) => s.path === 'docs/guide.md' && s.category === 'lint')).toBe(true);
  });

  it('returns nothing for other tools', () => {
    expect(markdownlintMatcher.extract(logLines('fixtures/recorded/web/markdown-link-check.log'))).toEqual([]);
  });
});
