import { describe, expect, it } from 'vitest';
import { scalatestMatcher } from '../../../src/extract/matchers/scalatest.js';
import { diagnose } from '../../../src/diagnose.js';
import { logLines } from '../../helpers/log.js';

// Real ScalaTest output pasted in public issue threads; see fixtures/recorded/scalatest/SOURCE.md.
const R = 'fixtures/recorded/scalatest';
const evidence = async (f: string) => {
  const d = await diagnose({ log: `${R}/${f}` });
  return { d, lines: d.evidence.map((e) => [e.line, e.text]) };
};

describe('scalatestMatcher', () => {
  it("pins `- test *** FAILED ***` to the `(File.scala:N)` its message ends in, the message as related", () => {
    const log = logLines(`${R}/scalatest-1443-flatspec.log`);
    const [s, ...rest] = scalatestMatcher.extract(log);
    expect(rest).toEqual([]);
    expect([s!.symbol, s!.path, s!.line, s!.category, s!.logLine, s!.related]).toEqual([
      'should throw NoSuchElementException if an empty stack is popped', 'FooSpec.scala', 18, 'test', 4, [5]]);
    expect(s!.message).toBe('Expected exception java.util.NoSuchElementException to be thrown, but java.lang.RuntimeException was thrown');
  });

  it('quotes the failure block and pins its line (diagnose, no repository)', async () => {
    const { d, lines } = await evidence('scalatest-1443-flatspec.log');
    expect(d.category).toBe('test');
    expect(lines).toEqual([
      [4, '[info] - should throw NoSuchElementException if an empty stack is popped *** FAILED ***'],
      [5, '[info]   Expected exception java.util.NoSuchElementException to be thrown, but java.lang.RuntimeException was thrown (FooSpec.scala:18)'],
    ]);
    expect([d.findings[0]!.file, d.findings[0]!.line]).toEqual(['FooSpec.scala', 18]);
  });

  it('stops the message at the stack trace, which the JVM frame matcher reads', async () => {
    const [s] = scalatestMatcher.extract(logLines(`${R}/utest-12-scalatest-trace.log`));
    expect([s!.symbol, s!.path, s!.line, s!.message, s!.related]).toEqual(['NOPTest', 'TestSampleMacros.scala', 14,
      'org.scalatest.exceptions.TestFailedException was thrown.', [3]]);
    const { d, lines } = await evidence('utest-12-scalatest-trace.log');
    expect(d.category).toBe('test');
    expect(lines.slice(0, 2)).toEqual([[2, '[info] - NOPTest *** FAILED ***'],
      [3, '[info]   org.scalatest.exceptions.TestFailedException was thrown. (TestSampleMacros.scala:14)']]);
    expect([d.findings[0]!.file, d.findings[0]!.line]).toEqual(['TestSampleMacros.scala', 14]);
  });

  it("marks the run's counts and sbt's `Failed tests:` list as restatements, with no location", async () => {
    const log = logLines(`${R}/usi-139-summary.log`);
    const text = (n: number) => log.find((l) => l.n === n)!.text;
    const signals = scalatestMatcher.extract(log);
    expect(signals.every((s) => s.restatement && s.category === 'test' && s.path === undefined)).toBe(true);
    expect(signals.map((s) => text(s.logLine))).toEqual([
      '[info] Tests: succeeded 71, failed 1, canceled 0, ignored 0, pending 0',
      '[info] *** 1 TEST FAILED ***',
      '[error] Failed tests:',
      '[error] (core / Test / test) sbt.TestsFailedException: Tests unsuccessful',
    ]);
    expect(signals[2]!.related!.map(text)).toEqual([text(6)]);
    expect(text(6)).toMatch(/com\.mesosphere\.usi\.core\.FlowHelpersTest$/);
    const d = await diagnose({ log: `${R}/usi-139-summary.log` });
    expect([d.category, d.status]).toEqual(['test', 'no-location']);
  });

  it('returns nothing for other tools', () => {
    expect(scalatestMatcher.extract(logLines('fixtures/recorded/scala/sbt-errorformat.log'))).toEqual([]);
    expect(scalatestMatcher.extract(logLines('fixtures/recorded/scala/scalac.log'))).toEqual([]);
    expect(scalatestMatcher.extract(logLines('fixtures/recorded/karma/karma-throw.log'))).toEqual([]);
  });
});
