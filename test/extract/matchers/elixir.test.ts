import { describe, expect, it } from 'vitest';
import { elixirMatcher } from '../../../src/extract/matchers/elixir.js';
import { logLines } from '../../helpers/log.js';

const rec = (f: string) => elixirMatcher.extract(logLines(`fixtures/recorded/exunit/${f}`));

describe('elixirMatcher', () => {
  it('reads a raised CompileError with the `== Compilation error in file` line as related', () => {
    expect(rec('mix-compile-undefined.log')).toEqual([{ kind: 'diagnostic', path: 'lib/undefined.ex', line: 8, tool: 'elixir',
      message: 'CompileError: undefined function lenght/1 (expected Slug.Words to define such a function or for it to be imported, but none are available)',
      severity: 'error', category: 'compile', weight: 1, logLine: 4, related: [3] }]);
  });

  it('reads a SyntaxError with its column', () => {
    expect(rec('mix-compile-syntax.log')).toMatchObject([{ path: 'lib/syntax.ex', line: 6, column: 3, category: 'compile' }]);
  });

  it('turns warnings into errors when --warnings-as-errors failed the build', () => {
    expect(rec('mix-compile-unused.log')).toEqual([{ kind: 'diagnostic', path: 'lib/unused.ex', line: 6, symbol: 'first', tool: 'elixir',
      message: 'variable "t" is unused (if the variable is not meant to be used, prefix it with an underscore)',
      severity: 'error', category: 'compile', weight: 0.9, logLine: 2, related: [3, 5] }]);
  });

  it('returns nothing for test output and other tools', () => {
    expect(rec('mix-test.log')).toEqual([]);
    expect(elixirMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
  });
});
