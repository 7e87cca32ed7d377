import { describe, expect, it } from 'vitest';
import { gradleMatcher } from '../../../src/extract/matchers/gradle.js';
import { logLines } from '../../helpers/log.js';

const run = (path: string) => gradleMatcher.extract(logLines(path));

describe('gradleMatcher', () => {
  it('reads a failed test with the full exception format, the failed task and the What went wrong block', () => {
    expect(run('fixtures/logs/gradle-test-assertion/log.txt')).toEqual([
      {
        kind: 'test',
        symbol: 'com.acme.text.PostTest > pathDropsAccentsAndPunctuation',
        message: 'org.junit.ComparisonFailure: expected:<...creme-brulee-at-home[]> but was:<...creme-brulee-at-home[-]>',
        path: 'com/acme/text/PostTest.java',
        line: 15,
        tool: 'gradle',
        category: 'test',
        severity: 'error',
        weight: 0.9,
        logLine: 41,
        related: [42],
      },
      expect.objectContaining({ kind: 'diagnostic', message: 'Task :test FAILED', category: 'test', logLine: 46 }),
      expect.objectContaining({
        message:
          'There were failing tests. See the report at: file:///home/runner/work/gradle-test-assertion/gradle-test-assertion/build/reports/tests/test/index.html',
        category: 'test',
        logLine: 62,
        related: [61],
      }),
    ]);
  });

  it('reads a real Gradle 7 job log: the JUnit 5 failure behind an app// loader prefix', () => {
    const out = run('fixtures/real-logs/gradle-2544985503-orig.log');
    expect(out.map((s) => [s.kind, s.symbol ?? s.message, s.path, s.line, s.logLine])).toEqual([
      ['test', 'ThemeManagerTest > installThemeOnScene()', 'org/jabref/gui/theme/ThemeManagerTest.java', 174, 761],
      ['diagnostic', 'Task :test FAILED', undefined, undefined, 822],
      ['diagnostic', 'There were failing tests. See the report at: file:///home/runner/work/jabref/jabref/build/reports/test/index.html', undefined, undefined, 828],
    ]);
    expect(out[0]!.message).toBe('org.opentest4j.AssertionFailedError: expected: <2> but was: <3>');
  });

  it('says compile for a failed compileJava task and its What went wrong block, leaving the error to javac', () => {
    const out = run('fixtures/real-logs/gradle-7801445827-orig.log');
    expect(out.map((s) => [s.message, s.category, s.logLine])).toEqual([
      ['Task :compileJava FAILED', 'compile', 636],
      ['Compilation failed; see the compiler error output for details.', 'compile', 643],
    ]);
    expect(out.every((s) => s.path === undefined)).toBe(true);
  });

  it('reads the Gradle 4 plain console, where the task line is glued to javac output', () => {
    expect(run('fixtures/logs/gradle-compile-error/log.txt')).toEqual([
      expect.objectContaining({ message: 'Compilation failed; see the compiler error output for details.', category: 'compile', logLine: 16 }),
    ]);
  });

  it("returns nothing for Maven's output", () => {
    expect(run('fixtures/logs/maven-junit-assertion/log.txt')).toEqual([]);
  });

  it("marks Gradle's restatements of failures reported above (the failed task, `There were failing tests`, `see the compiler error output`)", () => {
    const tests = run('fixtures/real-logs/gradle-2544985503-orig.log');
    expect(tests.map((s) => [s.kind, s.logLine, s.restatement ?? false])).toEqual([
      ['test', 761, false],
      ['diagnostic', 822, true],
      ['diagnostic', 828, true],
    ]);
    const compile = run('fixtures/real-logs/gradle-7801445827-orig.log');
    expect(compile.every((s) => s.restatement === true)).toBe(true);
    // They still say what kind of failure it was.
    expect(compile.map((s) => s.category)).toEqual(['compile', 'compile']);
  });

  it("quotes a build script's failure report whole: FAILURE, * Where: and its location, * What went wrong: and its body", () => {
    const out = run('fixtures/wild/travis-bugswarm-mifosx-1106.1/log.txt');
    expect(out.map((s) => [s.message.slice(0, 30), s.category, s.logLine, s.related, s.restatement ?? false])).toEqual([
      ["Build file '/home/travis/build", 'compile', 82, [79, 81, 84, 85, 86], false],
      ['Could not find method mavenRep', 'compile', 86, [79, 81, 82, 84, 85], false],
    ]);
    expect(out[0]).toMatchObject({ path: '/home/travis/build/openMF/mifosx/mifosng-provider/build.gradle', line: 10 });
  });
});
