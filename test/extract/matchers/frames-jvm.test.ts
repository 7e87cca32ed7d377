import { describe, expect, it } from 'vitest';
import { jvmFramesMatcher, parseJvmFrame } from '../../../src/extract/matchers/frames-jvm.js';
import { logLines } from '../../helpers/log.js';

const run = (path: string) => jvmFramesMatcher.extract(logLines(path));

describe('jvmFramesMatcher', () => {
  it('reads the NPE trace: repo frames at 0.6 with package paths, JDK frames at 0.05', () => {
    const out = run('fixtures/logs/maven-npe-in-source/log.txt');
    expect(out.map((s) => [s.path, s.line, s.symbol, s.weight, s.logLine])).toEqual([
      ['com/acme/orders/ReceiptFormatter.java', 7, 'com.acme.orders.ReceiptFormatter.line', 0.6, 32],
      ['com/acme/orders/OrderHistory.java', 18, 'com.acme.orders.OrderHistory.lines', 0.6, 33],
      ['com/acme/orders/OrderHistoryTest.java', 14, 'com.acme.orders.OrderHistoryTest.newestFirst', 0.6, 34],
      ['java/lang/reflect/Method.java', 569, 'java.lang.reflect.Method.invoke', 0.05, 35],
      ['java/util/ArrayList.java', 1511, 'java.util.ArrayList.forEach', 0.05, 36],
      ['java/util/ArrayList.java', 1511, 'java.util.ArrayList.forEach', 0.05, 37],
    ]);
    expect(out[0]!.message).toBe('at com.acme.orders.ReceiptFormatter.line(ReceiptFormatter.java:7)');
  });

  it('keeps JUnit frames as low-weight evidence', () => {
    const out = run('fixtures/logs/maven-junit-assertion/log.txt');
    expect(out.filter((s) => s.weight === 0.6).map((s) => [s.path, s.line])).toEqual([['com/acme/parcel/QuoteTest.java', 10]]);
    expect(out.filter((s) => s.symbol!.startsWith('org.junit.'))).toHaveLength(6);
    expect(out.filter((s) => s.symbol!.startsWith('org.junit.')).every((s) => s.weight === 0.05)).toBe(true);
  });

  it('strips class-loader prefixes (app//) from a real Gradle log', () => {
    const out = run('fixtures/real-logs/gradle-2544985503-orig.log');
    expect(out.find((s) => s.logLine === 768)).toMatchObject({
      path: 'org/jabref/gui/theme/ThemeManagerTest.java',
      line: 174,
      symbol: 'org.jabref.gui.theme.ThemeManagerTest.installThemeOnScene',
      weight: 0.6,
    });
    expect(out.find((s) => s.logLine === 763)).toMatchObject({ symbol: 'org.junit.jupiter.api.AssertionUtils.fail', weight: 0.05 });
  });

  it('ties the innermost Caused by line to the first repo frame under it, not to the next test', () => {
    const real = run('fixtures/real-logs/maven-2003301608-orig.log');
    const first = real.find((s) => s.logLine === 1624)!;
    expect(first).toMatchObject({ path: 'de/codecentric/boot/admin/server/cloud/AdminApplicationDiscoveryTest.java', line: 68, related: [1619] });
    const scijava = run('fixtures/real-logs/maven-7885474901-orig.log');
    expect(scijava.find((s) => s.logLine === 723)!.related).toBeUndefined();
  });

  it('does not read frames without a source file', () => {
    expect(parseJvmFrame('\tat java.base/jdk.internal.reflect.NativeMethodAccessorImpl.invoke0(Native Method)')).toBeNull();
  });

  it("reads a Jenkins pipeline's WorkflowScript frame as the Jenkinsfile's line (a real Jenkins console)", () => {
    const out = run('fixtures/wild/jenkins-pipeline-appigle-post-condition-dsl/log.txt').filter((s) => s.path === 'Jenkinsfile');
    expect(out.map((s) => [s.path, s.line, s.symbol, s.logLine])).toEqual([
      ['Jenkinsfile', 38, 'WorkflowScript.run', 136],
      ['Jenkinsfile', 38, 'WorkflowScript.run', 245],
    ]);
  });
});
