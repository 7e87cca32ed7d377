import { describe, expect, it } from 'vitest';
import { genericErrorsMatcher } from '../../../src/extract/matchers/generic-errors.js';
import { logLines } from '../../helpers/log.js';

const categories = (lines: string[]) => genericErrorsMatcher.extract(lines.map((text, i) => ({ n: i + 1, text }))).map((s) => s.category);

describe('genericErrorsMatcher: the category a failure line names', () => {
  it("Gradle's failed-test line is a test even when the test's name holds a build word", () => {
    // Verbatim from uwescience/myria's Travis job 63073864 (tdurieux/BugSwarm-dissection,
    // BugSwarm/uwescience-myria-63073864/failing.log): `Compile` in the name made the NPE a compile failure.
    expect(categories(['edu.washington.escience.myria.operator.apply.StatefulApplyTest > testBug547UpdateNotNeedsCompile FAILED'])).toEqual(['test']);
  });

  it("a compile task or goal still says compile (a recorded Gradle build's `Execution failed for task ':compileJava'`)", () => {
    const signals = genericErrorsMatcher.extract(logLines('fixtures/logs/gradle-compile-error/log.txt'));
    expect(signals.some((s) => s.category === 'compile' && s.message.includes(':compileJava'))).toBe(true);
  });
});
