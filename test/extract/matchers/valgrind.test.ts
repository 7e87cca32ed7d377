import { describe, expect, it } from 'vitest';
import { valgrindMatcher } from '../../../src/extract/matchers/valgrind.js';
import { logLines } from '../../helpers/log.js';

describe('valgrindMatcher', () => {
  it('pins an invalid read to the first frame in the program, the error block as related', () => {
    const signals = valgrindMatcher.extract(logLines('fixtures/recorded/sanitizers/valgrind-invalid-read.log'));
    expect(signals[0]).toEqual({ kind: 'diagnostic', path: 'oob.c', line: 6, symbol: 'sum', message: 'Invalid read of size 4',
      tool: 'valgrind', severity: 'error', category: 'test', weight: 1, logLine: 6, related: [7, 8, 9, 10, 11] });
    expect(signals.slice(1).map((s) => [s.kind, s.path, s.line, s.symbol])).toEqual([
      ['frame', 'oob.c', 6, 'sum'],
      ['frame', 'oob.c', 13, 'main'],
      ['frame', 'oob.c', 11, 'main'],
    ]);
  });

  it('pins a definite leak to the allocating function, past malloc in vgpreload', () => {
    const signals = valgrindMatcher.extract(logLines('fixtures/recorded/sanitizers/valgrind-leak.log'));
    expect(signals[0]).toMatchObject({ kind: 'diagnostic', path: 'leak.c', line: 6, symbol: 'join', weight: 0.8,
      message: '13 bytes in 1 blocks are definitely lost in loss record 1 of 1', related: [14, 15, 16] });
    // The banner, HEAP SUMMARY and LEAK SUMMARY are not errors.
    expect(signals.filter((s) => s.kind === 'diagnostic')).toHaveLength(1);
  });

  it('returns nothing for other tools', () => {
    expect(valgrindMatcher.extract(logLines('fixtures/recorded/sanitizers/lsan-ubsan.log'))).toEqual([]);
  });
});
