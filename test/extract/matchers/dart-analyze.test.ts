import { describe, expect, it } from 'vitest';
import { dartAnalyzeMatcher } from '../../../src/extract/matchers/dart-analyze.js';
import { logLines } from '../../helpers/log.js';

// Real `flutter analyze` / `dart analyze` output published by danger-flutter_lint (MIT); see fixtures/recorded/dart/SOURCE.md.
const R = 'fixtures/recorded/dart';
const pins = (f: string) => dartAnalyzeMatcher.extract(logLines(`${R}/${f}`)).map((s) => [s.path, s.line, s.column, s.category, s.symbol]);

describe('dartAnalyzeMatcher', () => {
  it("reads flutter analyze's `info • message • file:line:col • code` as lint", () => {
    expect(pins('flutter-analyze-danger.log')).toEqual([
      ['lib/main.dart', 5, 7, 'lint', 'camel_case_types'],
      ['lib/home/home_page.dart', 13, 13, 'lint', 'prefer_const_constructors'],
      ['lib/profile/user/phone_widget.dart', 19, 7, 'lint', 'avoid_catches_without_on_clauses'],
    ]);
  });

  it("reads dart analyze's `info - file:line:col - message - code`", () => {
    const [s] = dartAnalyzeMatcher.extract(logLines(`${R}/dart-analyze-danger.log`));
    expect([s!.path, s!.line, s!.column, s!.message]).toEqual(['integration_test/app_test.dart', 4, 8,
      'Duplicate import. Try removing all but one import of the library. (duplicate_import)']);
  });

  it('joins an issue wrapped after ` •` and calls analyzer errors compile errors, above the warnings', () => {
    const log = logLines(`${R}/flutter-analyze-wrapped-danger.log`);
    const signals = dartAnalyzeMatcher.extract(log);
    expect(signals).toHaveLength(15);
    const uri = signals.find((s) => s.symbol === 'uri_does_not_exist')!;
    expect([uri.path, uri.line, uri.column, uri.category, uri.severity]).toEqual(['example/test/widget_test.dart', 11, 8, 'compile', 'error']);
    expect(uri.related!.map((n) => log.find((l) => l.n === n)!.text.trim())).toEqual(['example/test/widget_test.dart:11:8 • uri_does_not_exist']);
    const klass = signals.find((s) => s.symbol === 'creation_with_non_type')!;
    expect([klass.path, klass.line, klass.message]).toEqual(['example/test/widget_test.dart', 16, "The name 'MyApp' isn't a class (creation_with_non_type)"]);
    expect(uri.weight).toBeGreaterThan(signals[0]!.weight);
  });

  it('returns nothing for other tools', () => {
    expect(dartAnalyzeMatcher.extract(logLines('fixtures/logs/eslint-no-unused-vars/log.txt'))).toEqual([]);
    expect(dartAnalyzeMatcher.extract(logLines('fixtures/recorded/karma/karma-throw.log'))).toEqual([]);
  });
});
