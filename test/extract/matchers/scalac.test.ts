import { describe, expect, it } from 'vitest';
import { scalacMatcher } from '../../../src/extract/matchers/scalac.js';
import { gccMatcher } from '../../../src/extract/matchers/gcc.js';
import { logLines } from '../../helpers/log.js';

// scalac.log: recorded here with Debian's scalac 2.11.12 on TheAlgorithms/Scala (record.sh); sbt-errorformat.log:
// real sbt 0.13 output published by reviewdog/errorformat (MIT); see fixtures/recorded/scala/SOURCE.md.
const R = 'fixtures/recorded/scala';

describe('scalacMatcher', () => {
  it("reads scalac's `File.scala:41: error: …` with found/required in the message and the caret block as related", () => {
    const log = logLines(`${R}/scalac.log`);
    const text = (n: number) => log.find((l) => l.n === n)!.text;
    const signals = scalacMatcher.extract(log);
    const B = 'src/main/scala/Search/BinarySearch.scala';
    expect(signals.map((s) => [s.path, s.line, s.category, s.severity])).toEqual([[B, 41, 'compile', 'error'], [B, 41, 'compile', 'error']]);
    expect(signals[0]!.message).toBe('type mismatch; found : lo.type (with underlying type Int) required: ?{def +(x$1: ? >: Double): ?}');
    expect(signals[0]!.related!.map(text).slice(-2)).toEqual(['        val mid: Int = lo + (hi - lo) / 2.0', '                       ^']);
    // The second error's block ends at its caret, not at the `two errors found` count.
    expect(signals[1]!.related!.map(text).at(-1)).toBe('                          ^');
  });

  it("reads sbt's `[error] /abs/File.scala:6: …`, its continuation as related, and `[warn]` diagnostics as warnings", () => {
    const log = logLines(`${R}/sbt-errorformat.log`);
    const signals = scalacMatcher.extract(log);
    const F = '/home/haya14busa/src/github.com/haya14busa/errorformat/fmts/testdata/resources/scala/scalac.scala';
    expect(signals.map((s) => [s.path, s.line, s.severity, s.message])).toEqual([
      [F, 6, 'error', 'missing argument list for method error in object Predef'],
      [F, 4, 'warning', 'private val in object F is never used'],
      [F, 5, 'warning', 'private method in object F is never used'],
    ]);
    expect(signals[0]!.related).toHaveLength(4);
    expect(signals[0]!.weight).toBeGreaterThan(signals[1]!.weight);
  });

  it('returns nothing for other tools, and gcc.ts leaves Scala alone', () => {
    expect(scalacMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
    expect(scalacMatcher.extract(logLines('fixtures/recorded/kotlin/kotlinc.log'))).toEqual([]);
    expect(gccMatcher.extract(logLines(`${R}/scalac.log`))).toEqual([]);
  });
});
