import { describe, expect, it } from 'vitest';
import { eslintMatcher } from '../../../src/extract/matchers/eslint.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const root = (c: string) => `/home/runner/work/${c}/${c}`;

describe('eslintMatcher', () => {
  it('reads the stylish format: rows under their path line, rule id kept, warnings weaker', () => {
    const c = 'eslint-no-unused-vars';
    expect(eslintMatcher.extract(log(c))).toEqual([
      {
        kind: 'diagnostic',
        path: `${root(c)}/src/posts.js`,
        line: 1,
        column: 10,
        message: "'pad' is defined but never used (no-unused-vars)",
        tool: 'eslint',
        severity: 'error',
        category: 'lint',
        weight: 1,
        logLine: 3,
      },
      {
        kind: 'diagnostic',
        path: `${root(c)}/src/posts.js`,
        line: 21,
        column: 3,
        message: 'Unexpected console statement (no-console)',
        tool: 'eslint',
        severity: 'warning',
        category: 'lint',
        weight: 0.3,
        logLine: 4,
      },
    ]);
  });

  it('reads the unix format across files inside an Actions log', () => {
    const c = 'eslint-eqeqeq-unix-format';
    const signals = eslintMatcher.extract(log(c));
    expect(signals.map((s) => [s.path, s.line, s.column, s.severity, s.logLine])).toEqual([
      [`${root(c)}/src/lib/prices.js`, 2, 15, 'error', 23],
      [`${root(c)}/src/lib/prices.js`, 8, 35, 'error', 24],
      [`${root(c)}/src/lib/stock.js`, 8, 19, 'error', 25],
    ]);
    expect(signals[0]!.message).toBe("Expected '===' and instead saw '=='. (eqeqeq)");
  });

  it('reads the compact format', () => {
    const c = 'eslint-no-undef-compact-format';
    const signals = eslintMatcher.extract(log(c));
    expect(signals.map((s) => [s.path, s.line, s.column, s.message, s.logLine])).toEqual([
      [`${root(c)}/src/server.js`, 25, 64, "'port' is not defined. (no-undef)", 1],
      [`${root(c)}/src/templates.js`, 6, 32, "'__dirname' is not defined. (no-undef)", 2],
    ]);
    expect(signals.every((s) => s.category === 'lint' && s.weight === 1)).toBe(true);
  });

  it('finds nothing in other tools’ output', () => {
    const others = [
      'tsc-cascade-errors-one-file',
      'tsc-pretty-missing-argument',
      'tsc-signature-change-call-site',
      'prettier-check-syntax-error',
    ];
    for (const c of others) {
      expect(eslintMatcher.extract(log(c))).toEqual([]);
    }
  });
});
