import { describe, expect, it } from 'vitest';
import { dartTestMatcher } from '../../../src/extract/matchers/dart-test.js';
import { dartAnalyzeMatcher } from '../../../src/extract/matchers/dart-analyze.js';
import { diagnose } from '../../../src/diagnose.js';
import { logLines } from '../../helpers/log.js';

// Real `dart test` / `flutter test` output pasted in public issue threads; see fixtures/recorded/dart/SOURCE.md.
const R = 'fixtures/recorded/dart';
const pins = (f: string) => dartTestMatcher.extract(logLines(`${R}/${f}`)).map((s) => [s.path, s.line, s.column, s.category, s.logLine]);

describe('dartTestMatcher', () => {
  it("pins a package:test failure to the trace's first frame outside package: and dart:, the matcher's message as related", () => {
    const [s, ...rest] = dartTestMatcher.extract(logLines(`${R}/very-good-cli-819-dart-test.log`));
    expect(rest).toEqual([]);
    expect([s!.path, s!.line, s!.column, s!.category, s!.symbol, s!.logLine]).toEqual([
      '/Users/sachin/Desktop/OpenSource/VeryGoodVentures/very_good_cli/test/src/cli/flutter_cli_test.dart', 734, 9, 'test', 'main.<fn>.<fn>.<fn>', 1]);
    expect(s!.message).toMatch(/^Actual: \[ Which: at location \[2\] is /);
    // The quoted `'…test/example_test.dart 4  main\n'` inside the Actual: value is not a frame.
    expect(s!.related).toEqual(Array.from({ length: 18 }, (_, k) => k + 2));
  });

  it('quotes the message and the trace, category test (diagnose, no repository)', async () => {
    const d = await diagnose({ log: `${R}/very-good-cli-819-dart-test.log` });
    expect(d.category).toBe('test');
    const quoted = d.evidence.map((e) => e.line);
    expect(quoted[0]).toBe(1);
    expect(quoted).toContain(10);
    expect(quoted).toContain(19);
  });

  it('reads a Windows path, and a message pasted under the trace', async () => {
    expect(pins('clean-architecture-tdd-5-flutter-test.log')).toEqual([
      ['test/features/number_trivia/data/models/number_trivia_model_test.dart', 23, 11, 'test', 5]]);
    const d = await diagnose({ log: `${R}/clean-architecture-tdd-5-flutter-test.log` });
    expect(d.category).toBe('test');
    expect([d.findings[0]!.file, d.findings[0]!.line]).toEqual(['test/features/number_trivia/data/models/number_trivia_model_test.dart', 23]);
    expect(d.evidence.map((e) => e.line)).toEqual([1, 2, 3, 5, 6]);
  });

  it("reads Flutter's `EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK` block, pinned to the test's own frame", async () => {
    const [s] = dartTestMatcher.extract(logLines(`${R}/flutter-7806-flutter-test.log`));
    expect([s!.path, s!.line, s!.column, s!.category, s!.logLine, s!.message]).toEqual([
      '/build/work/6cd116f1eb920c43bd7f2decf46f870c/exception_test.dart', 38, 7, 'test', 3,
      'Expected: throws Actual: <Closure: () => dynamic> Which: did not throw']);
    const d = await diagnose({ log: `${R}/flutter-7806-flutter-test.log` });
    expect(d.category).toBe('test');
    expect(d.evidence.slice(0, 5).map((e) => e.line)).toEqual([1, 2, 3, 4, 5]);
    expect(d.evidence.map((e) => e.line)).toContain(9);
  });

  it("reads the front end's compile errors (`compiler message: test/a_test.dart:4:11: Error:`), a `Context:` as the error's related", async () => {
    const signals = dartTestMatcher.extract(logLines(`${R}/flutter-16496-compile-error.log`));
    expect(signals.map((s) => [s.path, s.line, s.column, s.category, s.logLine, s.related, !!s.restatement])).toEqual([
      ['test/a_test.dart', 4, 11, 'compile', 2, [3, 4, 5, 6, 7], false],
      // The suite that failed to load is pinned nowhere: its only own-looking frame is the runner's generated listener.
      [undefined, undefined, undefined, 'compile', 8, [9, 10, 11, 12, 13, 14], false],
      [undefined, undefined, undefined, 'test', 16, undefined, true],
    ]);
    expect(signals[0]!.message).toBe("Constructor has no named parameter with the name 'bogus'.");
    const d = await diagnose({ log: `${R}/flutter-16496-compile-error.log` });
    expect(d.category).toBe('compile');
    expect([d.findings[0]!.file, d.findings[0]!.line]).toEqual(['test/a_test.dart', 4]);
    expect(d.evidence.slice(0, 3).map((e) => [e.line, e.text])).toEqual([
      [2, "compiler message: test/a_test.dart:4:11: Error: Constructor has no named parameter with the name 'bogus'."],
      [3, 'compiler message:   new Foo(bogus: 1);'],
      [4, 'compiler message:           ^^^^^'],
    ]);
    expect(d.evidence.map((e) => e.line)).not.toContain(16);
  });

  it('returns nothing for the analyzer and other tools', () => {
    expect(dartTestMatcher.extract(logLines(`${R}/flutter-analyze-danger.log`))).toEqual([]);
    expect(dartTestMatcher.extract(logLines(`${R}/dart-analyze-danger.log`))).toEqual([]);
    expect(dartAnalyzeMatcher.extract(logLines(`${R}/flutter-7806-flutter-test.log`))).toEqual([]);
    expect(dartTestMatcher.extract(logLines('fixtures/recorded/karma/karma-throw.log'))).toEqual([]);
    expect(dartTestMatcher.extract(logLines('fixtures/recorded/scalatest/utest-12-scalatest-trace.log'))).toEqual([]);
  });
});
