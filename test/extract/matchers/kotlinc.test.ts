import { describe, expect, it } from 'vitest';
import { kotlincMatcher } from '../../../src/extract/matchers/kotlinc.js';
import { gccMatcher } from '../../../src/extract/matchers/gcc.js';
import { logLines } from '../../helpers/log.js';

// Recorded here with Debian's kotlinc 1.3.31 on TheAlgorithms/Kotlin with one line broken; see fixtures/recorded/kotlin/record.sh.
const log = logLines('fixtures/recorded/kotlin/kotlinc.log');

describe('kotlincMatcher', () => {
  it('reads `File.kt:line:col: error: message` as a compile error, the source line and caret as related', () => {
    const text = (n: number) => log.find((l) => l.n === n)!.text.trim();
    const signals = kotlincMatcher.extract(log);
    expect(signals.map((s) => [s.path, s.line, s.column, s.category, s.severity, s.message])).toEqual([
      ['src/main/kotlin/math/Median.kt', 28, 12, 'compile', 'error', 'type mismatch: inferred type is Int but Double was expected'],
    ]);
    expect(signals[0]!.related!.map(text)).toEqual(['return sumOfMiddleValues / 2', '^']);
  });

  it("ignores the JVM's own warning and other tools' output; gcc.ts leaves Kotlin to it", () => {
    expect(kotlincMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
    expect(kotlincMatcher.extract(logLines('fixtures/logs/gradle-compile-error/log.txt'))).toEqual([]);
    expect(gccMatcher.extract(log)).toEqual([]);
  });
});
