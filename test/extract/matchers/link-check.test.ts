import { describe, expect, it } from 'vitest';
import { linkCheckMatcher } from '../../../src/extract/matchers/link-check.js';
import { logLines } from '../../helpers/log.js';

describe('linkCheckMatcher', () => {
  it('reads a dead link under its FILE:, the link as the symbol, the summary repeat as related', () => {
    const log = logLines('fixtures/recorded/web/markdown-link-check.log');
    expect(linkCheckMatcher.extract(log)).toEqual([{ kind: 'diagnostic', path: 'docs/guide.md', symbol: 'setup.md#quick-start',
      message: 'dead link setup.md#quick-start', tool: 'link-check', severity: 'error', category: 'lint', weight: 0.8, logLine: 4, related: [2, 9] }]);
    expect(log.find((l) => l.n === 9)!.text).toBe('  [✖] setup.md#quick-start → Status: 400');
  });

  it('returns nothing for other tools', () => {
    expect(linkCheckMatcher.extract(logLines('fixtures/recorded/web/markdownlint.log'))).toEqual([]);
  });
});
