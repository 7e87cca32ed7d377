import { describe, expect, it } from 'vitest';
import { prettierMatcher } from '../../../src/extract/matchers/prettier.js';
import { logLines } from '../../helpers/log.js';

const log = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);

describe('prettierMatcher', () => {
  it('reads prettier --check in an Actions log: one lint diagnostic per file, without a line', () => {
    const lines = log('prettier-check-unformatted');
    expect(prettierMatcher.extract(lines)).toEqual([
      {
        kind: 'diagnostic',
        path: 'src/rollout.js',
        message: 'Code style issues found in the above file. Run Prettier with --write to fix.',
        tool: 'prettier',
        severity: 'error',
        category: 'lint',
        weight: 1,
        logLine: 20,
        related: [21],
      },
    ]);
    expect(lines[19]!.text).toBe('[warn] src/rollout.js');
  });

  it('reads a file Prettier cannot parse, with its location, next to an unformatted one', () => {
    const signals = prettierMatcher.extract(log('prettier-check-syntax-error'));
    expect(signals).toEqual([
      expect.objectContaining({ path: 'src/flags.js', logLine: 2, category: 'lint' }),
      expect.objectContaining({
        path: 'src/segments.js',
        line: 5,
        column: 3,
        message: 'SyntaxError: Unexpected token, expected ","',
        logLine: 3,
        category: 'lint',
      }),
    ]);
    // no "Code style issues found" summary when a file failed to parse
    expect(signals[0]!.message).toBe('Code style issues found by prettier --check');
    expect(signals[0]).not.toHaveProperty('line');
    expect(signals[1]!.related).toBeUndefined();
  });

  it('finds nothing in other tools’ output', () => {
    const others = [
      'eslint-no-unused-vars',
      'eslint-eqeqeq-unix-format',
      'tsc-pretty-missing-argument',
      'tsc-missing-package-import',
    ];
    for (const c of others) {
      expect(prettierMatcher.extract(log(c))).toEqual([]);
    }
  });
});
