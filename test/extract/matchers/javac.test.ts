import { describe, expect, it } from 'vitest';
import { javacMatcher } from '../../../src/extract/matchers/javac.js';
import { logLines } from '../../helpers/log.js';

const run = (path: string) => javacMatcher.extract(logLines(path));

describe('javacMatcher', () => {
  it('reads plain javac: path as printed, column from the caret, code line not related', () => {
    expect(run('fixtures/logs/javac-type-error/log.txt')).toEqual([
      {
        kind: 'diagnostic',
        path: 'src/com/acme/inventory/Stock.java',
        line: 29,
        column: 31,
        message: 'incompatible types: String cannot be converted to int',
        tool: 'javac',
        severity: 'error',
        category: 'compile',
        weight: 1,
        logLine: 1,
      },
    ]);
  });

  it('reads javac through maven once, with its detail lines and the repeat as related', () => {
    const [s, ...rest] = run('fixtures/logs/maven-javac-call-site/log.txt');
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      path: '/home/runner/work/maven-javac-call-site/maven-javac-call-site/src/main/java/com/acme/shop/Checkout.java',
      line: 16,
      column: 26,
      message: 'method total in class com.acme.shop.PriceCalculator cannot be applied to given types;',
      category: 'compile',
      logLine: 16,
      related: [17, 18, 19, 29],
    });
  });

  it('calls a missing third-party package a dependency problem, the symbols it breaks compile errors', () => {
    const out = run('fixtures/logs/maven-missing-package/log.txt');
    expect(out.map((s) => [s.line, s.category, s.logLine])).toEqual([
      [5, 'dependency', 41],
      [13, 'compile', 42],
      [15, 'compile', 45],
    ]);
    expect(out[0]!.message).toBe('package org.apache.commons.text does not exist');
    expect(out[1]!.related).toEqual([43, 44, 58]);
  });

  it("reads javac through Gradle 4's plain console, where the task name is glued to the path", () => {
    expect(run('fixtures/logs/gradle-compile-error/log.txt')).toEqual([
      expect.objectContaining({
        path: '/home/runner/work/gradle-compile-error/gradle-compile-error/src/main/java/com/acme/weather/Alerts.java',
        line: 11,
        column: 17,
        message: 'cannot find symbol',
        logLine: 4,
        related: [7, 8],
      }),
    ]);
  });

  it('reads a real Gradle job log: the error at full weight, the [removal] warning at warning weight', () => {
    const out = run('fixtures/real-logs/gradle-7801445827-orig.log');
    expect(out.map((s) => [s.path!.split('/').pop(), s.line, s.severity, s.weight, s.logLine])).toEqual([
      ['Grasscutter.java', 275, 'warning', 0.3, 621],
      ['DungeonChallenge.java', 91, 'error', 1, 624],
    ]);
  });

  it("returns nothing for other tools' output", () => {
    expect(run('fixtures/logs/maven-junit-assertion/log.txt')).toEqual([]);
    expect(run('fixtures/recorded/dotnet/setup-dotnet-37-build.log')).toEqual([]);
  });
});
