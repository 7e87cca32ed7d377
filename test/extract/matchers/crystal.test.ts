import { describe, expect, it } from 'vitest';
import { crystalMatcher } from '../../../src/extract/matchers/crystal.js';
import { logLines } from '../../helpers/log.js';

describe('crystalMatcher', () => {
  it('reads `In file.cr:L:C`, the excerpt and the `Error:` verdict as one diagnostic', () => {
    expect(crystalMatcher.extract(logLines('fixtures/recorded/crystal/no-color.log'))).toEqual([
      { kind: 'diagnostic', path: 'src/main.cr', line: 5, column: 13, message: "expected argument #1 to 'Levenshtein::Finder#test' to be String, not Int32",
        tool: 'crystal', severity: 'error', category: 'compile', weight: 1, logLine: 3, related: [4, 5, 6, 7] },
    ]);
    expect(crystalMatcher.extract(logLines('fixtures/recorded/crystal/error-trace.log'))).toMatchObject([{ path: 'src/main.cr', line: 5 }]);
  });

  it('reads the coloured output of the golden case once its colours are cleaned', () => {
    expect(crystalMatcher.extract(logLines('fixtures/logs/crystal-undefined-method-levenshtein/log.txt'))).toMatchObject([
      { path: 'src/levenshtein.cr', line: 40, column: 23, message: "undefined method 'minimum' for Math:Module" },
    ]);
  });

  it('returns nothing for other tools', () => {
    expect(crystalMatcher.extract(logLines('fixtures/logs/gfortran-implicit-none-renamed-loop/log.txt'))).toEqual([]);
    expect(crystalMatcher.extract(logLines('fixtures/recorded/terraform/plan.log'))).toEqual([]);
  });
});
