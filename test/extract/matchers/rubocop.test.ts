import { describe, expect, it } from 'vitest';
import { rubocopMatcher } from '../../../src/extract/matchers/rubocop.js';
import { logLines } from '../../helpers/log.js';

describe('rubocopMatcher', () => {
  it('reads offences with the quoted line and carets as related (progress formatter)', () => {
    const signals = rubocopMatcher.extract(logLines('fixtures/recorded/rubocop/rubocop.log'));
    expect(signals.map((s) => [s.path, s.line, s.column, s.symbol, s.weight, s.related])).toEqual([
      ['lib/report.rb', 3, 1, 'Style/Documentation', 0.8, [7, 8]],
      ['lib/report.rb', 5, 5, 'Style/IfUnlessModifier', 0.8, [10, 11]],
      ['lib/report.rb', 5, 14, 'Style/NilComparison', 0.8, [13, 14]],
      ['lib/report.rb', 7, 5, 'Layout/EmptyLineAfterGuardClause', 0.8, [16, 17]],
      ['lib/report.rb', 8, 5, 'Lint/UselessAssignment', 1, [19, 20]],
    ]);
    expect(signals.every((s) => s.category === 'lint' && s.kind === 'diagnostic')).toBe(true);
    expect(signals[4]!.message).toBe('Lint/UselessAssignment: Useless assignment to variable - unused.');
  });

  it('reads the emacs formatter (absolute paths, no quoted lines)', () => {
    const signals = rubocopMatcher.extract(logLines('fixtures/recorded/rubocop/rubocop-emacs.log'));
    expect(signals).toHaveLength(5);
    expect(signals[0]).toMatchObject({ path: '/home/runner/work/report/report/lib/report.rb', line: 3, related: [] });
  });

  it('returns nothing for other tools (flake8 and gcc print the same path:line:col shape)', () => {
    expect(rubocopMatcher.extract(logLines('fixtures/logs/flake8-undefined-name/log.txt'))).toEqual([]);
    expect(rubocopMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
  });
});
