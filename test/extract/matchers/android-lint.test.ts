import { describe, expect, it } from 'vitest';
import { androidLintMatcher } from '../../../src/extract/matchers/android-lint.js';
import { gccMatcher } from '../../../src/extract/matchers/gcc.js';
import { logLines } from '../../helpers/log.js';

// A real lint text report of Morganczech/internetradio (MIT); see fixtures/recorded/android-lint/SOURCE.md.
const log = logLines('fixtures/recorded/android-lint/lint-results-debug-internetradio.txt');
const A = '/home/miroslav/Dokumenty/android/app';

describe('androidLintMatcher', () => {
  it('reads every `file:line: Warning: message [Id]` with its source line and marker, and not the explanations', () => {
    const text = (n: number) => log.find((l) => l.n === n)!.text;
    const signals = androidLintMatcher.extract(log);
    expect(signals).toHaveLength(31);
    expect(signals.map((s) => [s.path, s.line, s.symbol, s.severity, s.category]).slice(0, 2)).toEqual([
      [`${A}/build.gradle.kts`, 15, 'OldTargetApi', 'warning', 'lint'],
      [`${A}/build.gradle.kts`, 65, 'GradleDependency', 'warning', 'lint'],
    ]);
    expect(signals[0]!.related!.map(text)).toEqual(['        targetSdk = 34', '        ~~~~~~~~~~~~~~']);
    const color = signals.find((s) => s.path!.endsWith('colors.xml'))!;
    expect([color.line, color.message]).toEqual([3, 'The resource R.color.purple_200 appears to be unused [UnusedResources]']);
    // An issue marked at the start of the line has a `^` marker, which ends its block too.
    const icon = signals.find((s) => s.path!.endsWith('ic_radio_default.xml'))!;
    expect(icon.related!.map(text).at(-1)).toBe('^');
    expect(new Set(signals.map((s) => s.symbol))).toEqual(new Set(['OldTargetApi', 'GradleDependency', 'UnusedResources', 'MonochromeLauncherIcon']));
  });

  it('returns nothing for compilers, and gcc.ts leaves lint issues alone', () => {
    expect(androidLintMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
    expect(androidLintMatcher.extract(logLines('fixtures/recorded/kotlin/kotlinc.log'))).toEqual([]);
    expect(gccMatcher.extract(log)).toEqual([]);
  });
});
