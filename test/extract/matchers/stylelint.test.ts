import { describe, expect, it } from 'vitest';
import { stylelintMatcher } from '../../../src/extract/matchers/stylelint.js';
import { logLines } from '../../helpers/log.js';

describe('stylelintMatcher', () => {
  it('reads the string formatter: the file line, then each `L:C ✖ message rule`', () => {
    expect(stylelintMatcher.extract(logLines('fixtures/recorded/web/stylelint.log'))).toEqual([
      { kind: 'diagnostic', path: 'styles/site.css', line: 3, column: 3, symbol: 'property-no-unknown', message: 'Unexpected unknown property "colr" (property-no-unknown)',
        tool: 'stylelint', severity: 'error', category: 'lint', weight: 1, logLine: 3, related: [2] },
      { kind: 'diagnostic', path: 'styles/site.css', line: 7, column: 12, symbol: 'length-zero-no-unit', message: 'Unexpected unit (length-zero-no-unit)',
        tool: 'stylelint', severity: 'error', category: 'lint', weight: 1, logLine: 4, related: [2] },
    ]);
  });

  it('returns nothing for other tools (eslint prints the same stylish shape for .js files)', () => {
    expect(stylelintMatcher.extract(logLines('fixtures/recorded/web/markdownlint.log'))).toEqual([]);
  });
});
