import { describe, expect, it } from 'vitest';
import { clangTidyMatcher } from '../../../src/extract/matchers/clang-tidy.js';
import { gccMatcher } from '../../../src/extract/matchers/gcc.js';
import { logLines } from '../../helpers/log.js';

const log = logLines('fixtures/recorded/clang-tidy/clang-tidy.log');

describe('clangTidyMatcher', () => {
  it('reads the check promoted to an error at full weight, the other checks as warnings, with the excerpt as related', () => {
    const signals = clangTidyMatcher.extract(log);
    expect(signals.map((s) => [s.line, s.column, s.symbol, s.severity, s.weight])).toEqual([
      [6, 3, 'bugprone-not-null-terminated-result', 'error', 1],
      [6, 3, 'clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling', 'warning', 0.3],
      [12, 38, 'readability-braces-around-statements', 'warning', 0.3],
      [13, 21, 'readability-braces-around-statements', 'warning', 0.3],
    ]);
    expect(signals[0]).toMatchObject({ path: '/home/runner/work/buffer/buffer/src/buffer.c', category: 'lint', logLine: 2, related: [3, 4, 5] });
  });

  it('leaves the compiler to gcc.ts, and gcc.ts leaves clang-tidy findings alone', () => {
    expect(gccMatcher.extract(log).filter((s) => s.severity)).toEqual([]);
    expect(clangTidyMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
  });
});
