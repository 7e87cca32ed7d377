import { describe, expect, it } from 'vitest';
import { sanitizerMatcher } from '../../../src/extract/matchers/sanitizers.js';
import { logLines } from '../../helpers/log.js';
import type { LogLine } from '../../../src/types.js';

const lines = (text: string): LogLine[] => text.split('\n').map((t, i) => ({ n: i + 1, text: t }));

describe('sanitizerMatcher', () => {
  it('pins an ASan report to its first frame in the program, with the report up to SUMMARY as related (Actions log)', () => {
    const log = logLines('fixtures/logs/asan-ring-buffer-overflow/log.txt');
    const signals = sanitizerMatcher.extract(log);
    const main = signals[0]!;
    expect(main).toMatchObject({ kind: 'diagnostic', path: 'src/ring.c', line: 28, symbol: 'ring_at', category: 'test', weight: 1 });
    expect(main.message).toMatch(/^AddressSanitizer: heap-buffer-overflow on address/);
    const text = (n: number) => log.find((l) => l.n === n)!.text;
    expect(text(main.logLine)).toContain('==ERROR: AddressSanitizer');
    // The block: READ line, both stacks, the `located 0 bytes to the right` line, SUMMARY; not the shadow map.
    const related = main.related!.map(text);
    expect(related[0]).toBe('READ of size 4 at 0x60200000001c thread T0');
    expect(related.at(-1)).toBe('SUMMARY: AddressSanitizer: heap-buffer-overflow src/ring.c:28 in ring_at');
    expect(related.some((t) => t.includes('is located 0 bytes to the right of 12-byte region'))).toBe(true);
    expect(related.some((t) => t.includes('Shadow'))).toBe(false);
    // glibc's and libsanitizer's frames are kept as evidence but weigh next to nothing.
    const frames = signals.filter((s) => s.kind === 'frame');
    expect(frames.map((f) => [f.path, f.line, f.symbol, f.weight])).toEqual([
      ['src/ring.c', 28, 'ring_at', 0.6],
      ['src/ring.c', 33, 'ring_sum', 0.6],
      ['tests/test_ring.c', 9, 'test_wraps', 0.6],
      ['tests/test_ring.c', 22, 'main', 0.6],
      ['../sysdeps/nptl/libc_start_call_main.h', 58, '__libc_start_call_main', 0.05],
      ['../csu/libc-start.c', 360, '__libc_start_main_impl', 0.05],
      ['../../../../src/libsanitizer/asan/asan_malloc_linux.cpp', 77, '__interceptor_calloc', 0.05],
      ['src/ring.c', 6, 'ring_new', 0.6],
      ['tests/test_ring.c', 6, 'test_wraps', 0.6],
      ['tests/test_ring.c', 22, 'main', 0.6],
      ['../sysdeps/nptl/libc_start_call_main.h', 58, '__libc_start_call_main', 0.05],
    ]);
  });

  it('reads a UBSan runtime error and a LeakSanitizer report past the malloc interceptor', () => {
    const signals = sanitizerMatcher.extract(logLines('fixtures/recorded/sanitizers/lsan-ubsan.log'));
    expect(signals[0]).toEqual({ kind: 'diagnostic', path: 'leak.c', line: 14, column: 23,
      message: "runtime error: signed integer overflow: 529530880 * 65536 cannot be represented in type 'int'",
      tool: 'sanitizer', severity: 'error', category: 'test', weight: 1, logLine: 1, related: [] });
    expect(signals[1]).toMatchObject({ kind: 'diagnostic', message: 'LeakSanitizer: detected memory leaks',
      path: '/home/runner/work/sanitizers/sanitizers/leak.c', line: 6, symbol: 'join', logLine: 4, related: [6, 7, 8, 9, 10, 12] });
  });

  it('returns nothing for other tools, and stays bounded on a report that never ends', () => {
    expect(sanitizerMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
    const endless = lines(['==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000',
      ...Array.from({ length: 50_000 }, (_, i) => `    #${i} 0x55 in f${i} src/a.c:${i + 1}`)].join('\n'));
    const signals = sanitizerMatcher.extract(endless);
    expect(signals[0]!.related!.length).toBeLessThanOrEqual(40);
    expect(signals.filter((s) => s.kind === 'frame').length).toBeLessThanOrEqual(30);
  });
});
