import { describe, expect, it } from 'vitest';
import { hadolintMatcher } from '../../../src/extract/matchers/hadolint.js';
import { logLines } from '../../helpers/log.js';

describe('hadolintMatcher', () => {
  it("reads hadolint's coloured tty findings (its own asserted output), with no file for text it was handed as a string", () => {
    expect(hadolintMatcher.extract(logLines('fixtures/recorded/hadolint/tty-colour.log'))).toEqual([
      { kind: 'diagnostic', line: 1, symbol: 'DL2001', message: 'DL2001: test', tool: 'hadolint', severity: 'warning', category: 'lint',
        weight: 0.6, logLine: 1 },
      { kind: 'diagnostic', line: 3, symbol: 'DL2002', message: 'DL2002: foo', tool: 'hadolint', severity: 'error', category: 'lint',
        weight: 0.9, logLine: 2 },
    ]);
  });

  it('reads a parse error with its line and column', () => {
    const [s, ...rest] = hadolintMatcher.extract(logLines('fixtures/recorded/hadolint/parse-error.log'));
    expect(rest).toEqual([]);
    expect(s).toMatchObject({ line: 1, column: 1, category: 'compile', severity: 'error' });
    expect(s!.message).toMatch(/^unexpected 'F' expecting '#', ADD, ARG, CMD, COPY,/);
    expect(s!.path).toBeUndefined();
  });

  it('returns nothing for other tools', () => {
    expect(hadolintMatcher.extract(logLines('fixtures/recorded/shellcheck/shellcheck-gcc.log'))).toEqual([]);
    expect(hadolintMatcher.extract(logLines('fixtures/recorded/terraform/plan.log'))).toEqual([]);
  });
});
