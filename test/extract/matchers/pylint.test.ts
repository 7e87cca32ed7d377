import { describe, expect, it } from 'vitest';
import { pylintMatcher } from '../../../src/extract/matchers/pylint.js';
import { logLines } from '../../helpers/log.js';

describe('pylintMatcher', () => {
  it('reads every message, errors weighing most, columns 1-based', () => {
    const signals = pylintMatcher.extract(logLines('fixtures/recorded/python-lint/pylint.log'));
    expect(signals).toHaveLength(13);
    expect(signals[3]).toEqual({ kind: 'diagnostic', path: 'pkg/report.py', line: 11, column: 30, symbol: 'undefined-variable',
      message: "E0602 Undefined variable 'totl' (undefined-variable)", tool: 'pylint', severity: 'error', category: 'lint', weight: 1, logLine: 5 });
    expect(signals[0]!.related).toEqual([1]);
    expect(signals.map((s) => s.weight)).toEqual([0.6, 0.6, 0.6, 1, 0.8, 0.6, 0.8, 0.8, 0.8, 0.6, 0.6, 0.6, 0.6]);
  });

  it('heads the first message of each module with its `************* Module x` line', () => {
    const signals = pylintMatcher.extract(logLines('fixtures/recorded/python-lint/pylint.log'));
    const headed = signals.filter((s) => s.related).map((s) => [s.logLine, s.related]);
    expect(headed).toEqual([[2, [1]], [12, [11]]]);
  });

  it('returns nothing for other tools (flake8 prints path:line:col: CODE without the colon after the code)', () => {
    expect(pylintMatcher.extract(logLines('fixtures/logs/flake8-undefined-name/log.txt'))).toEqual([]);
    expect(pylintMatcher.extract(logLines('fixtures/recorded/python-lint/black-diff.log'))).toEqual([]);
  });
});
