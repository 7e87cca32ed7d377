import { describe, expect, it } from 'vitest';
import { mavenMatcher } from '../../../src/extract/matchers/maven.js';
import { logLines } from '../../helpers/log.js';

const all = (path: string) => mavenMatcher.extract(logLines(path));
/** The per-test and resolution signals; the Results summary's block signal is tested on its own below. */
const run = (path: string) => all(path).filter((s) => !(s.kind === 'diagnostic' && s.category === 'test'));

describe('mavenMatcher', () => {
  it('reads a surefire 3 assertion failure: title, expected/actual message, the test frame, the summary line', () => {
    expect(run('fixtures/logs/maven-junit-assertion/log.txt')).toEqual([
      {
        kind: 'test',
        symbol: 'com.acme.parcel.QuoteTest.smallParcelAtTheBandLimit',
        message: 'org.opentest4j.AssertionFailedError: expected: <450> but was: <700>',
        path: 'com/acme/parcel/QuoteTest.java',
        line: 10,
        tool: 'maven',
        category: 'test',
        severity: 'error',
        weight: 0.9,
        logLine: 55,
        // The class's `Tests run: …, Failures: 1 … <<< FAILURE! -- in …` above heads the block; the test's
        // own frame (63) closes it.
        related: [54, 56, 63, 72],
      },
    ]);
  });

  it('reads an error (<<< ERROR!) the same way, with the NPE as the message', () => {
    const [s, ...rest] = run('fixtures/logs/maven-npe-in-source/log.txt');
    expect(rest).toEqual([]);
    expect(s).toMatchObject({
      symbol: 'com.acme.orders.OrderHistoryTest.newestFirst',
      message:
        'java.lang.NullPointerException: Cannot invoke "String.toLowerCase()" because the return value of "com.acme.orders.Customer.email()" is null',
      path: 'com/acme/orders/OrderHistoryTest.java',
      line: 14,
      logLine: 30,
    });
  });

  it('reads an unresolved dependency as a dependency failure naming the artifact', () => {
    const out = run('fixtures/logs/maven-unresolved-dependency/log.txt');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ kind: 'diagnostic', category: 'dependency', symbol: 'gson', weight: 0.8, logLine: 13 });
    expect(out[0]!.path).toBeUndefined();
    expect(out[0]!.message).toContain('com.google.code.gson:gson:jar:2.14.0 has not been downloaded');
  });

  it('reads JUnit 4 names (testX(com.a.XTest)) from a real log and ties the Errors summary to them', () => {
    const out = run('fixtures/real-logs/maven-7885474901-orig.log');
    expect(out.map((s) => [s.symbol, s.line, s.logLine, s.related])).toEqual([
      ['org.scijava.command.CommandArrayConverterTest.testArrayConvertFromStringCommandWildcardGenerics', 98, 715, [714, 716, 717, 967]],
      ['org.scijava.command.CommandArrayConverterTest.testArrayConvertFromStringCommandRaw', 69, 721, [722, 723, 966]],
    ]);
  });

  it('places a test inherited from a base class at the base class frame', () => {
    const out = run('fixtures/real-logs/maven-2397394521-orig.log');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      symbol: 'org.slf4j.simple.SimpleLoggerMultithreadedInitializationTest.multiThreadedInitialization',
      path: 'org/slf4j/testHarness/MultithreadedInitializationTest.java',
      line: 33,
      related: [1585, 1587, 1627],
    });
  });

  it('leaves compiler errors to javac', () => {
    expect(run('fixtures/logs/maven-javac-call-site/log.txt')).toEqual([]);
    expect(run('fixtures/logs/gradle-test-assertion/log.txt')).toEqual([]);
  });

  it("quotes surefire's Results summary as one block: the entries, their bare continuation lines and the count", () => {
    // Surefire 3 on a real log: two entries whose messages run onto bare lines and a blank one, then `[INFO]` and the count.
    const summary = all('fixtures/real-logs/maven-16621473969-orig.log').filter((s) => s.kind === 'diagnostic' && s.category === 'test');
    expect(summary.map((s) => [s.message, s.logLine, s.related])).toEqual([['Failures:', 4414, [4415, 4416, 4417, 4418, 4419, 4422]]]);
    // JUnit 4 naming under `[ERROR] Errors:`, then the count after an `[INFO]` line.
    const junit4 = all('fixtures/real-logs/maven-7885474901-orig.log').filter((s) => s.kind === 'diagnostic');
    expect(junit4.map((s) => [s.logLine, s.related])).toEqual([[965, [966, 967, 969]]]);
    // Surefire 2's unprefixed `Tests in error:` block ends at its blank line, before the count.
    const recorded = all('fixtures/logs/maven-npe-in-source/log.txt').filter((s) => s.kind === 'diagnostic');
    expect(recorded.map((s) => [s.message, s.logLine, s.related])).toEqual([['Errors:', 42, [43, 45]]]);
  });
});
