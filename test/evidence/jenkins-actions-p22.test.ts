import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { isEmptyLine } from '../../src/evidence/grow-block.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Issue 14's Jenkins and Actions round of session 30 (helper p22jen): rules on what is quoted from real
 * Actions jobs of larger projects (fixtures/wild/, each label.json names its source). The logs are read from
 * the mirrors `fetch` brought (not committed): without them these tests are skipped.
 */
const JNA = 'gha-ant-jna-callback-wrapper-not-reused';

const evidenceOf = async (id: string) => (await diagnose({ log: wildLog(id) })).evidence.map((e) => e.line);

describe.skipIf(!hasWildLog(JNA))("Ant's `<junit>` report (brief formatter) under Ant's task column", () => {
  it("quotes the failed test case, its message, exception and frames, and the suite's verdict (jna; before: only `BUILD FAILED`)", async () => {
    const lines = await evidenceOf(JNA);
    const header = wildLineNo(JNA, /\[junit\] Testcase: testInvokeCallback\(com\.sun\.jna\.DirectCallbacksTest\):\tFAILED/);
    expect(lines[0]).toBe(header);
    expect(lines).toContain(wildLineNo(JNA, /\[junit\] junit\.framework\.AssertionFailedError: /, header));
    expect(lines).toContain(wildLineNo(JNA, /\[junit\] \tat com\.sun\.jna\.CallbacksTest\.testInvokeCallback\(CallbacksTest\.java:969\)/));
    expect(lines).toContain(wildLineNo(JNA, /\[junit\] Test com\.sun\.jna\.DirectCallbacksTest FAILED/));
    expect(lines).toContain(wildLineNo(JNA, /^\S*\s*BUILD FAILED/));
  });

  it("Ant's task column alone (`    [junit] `, the relayed tool's blank line) is not quoted", async () => {
    const lines = await evidenceOf(JNA);
    const header = wildLineNo(JNA, /\[junit\] Testcase: testInvokeCallback/);
    const blank = wildLineNo(JNA, /\[junit\] $/, header);
    expect(lines).not.toContain(blank);
    expect(isEmptyLine('    [junit] ')).toBe(true);
    expect(isEmptyLine('    [junit]')).toBe(true);
  });
});

const EXEDIO = 'gha-ant-exedio-junit-vault-group';

describe.skipIf(!hasWildLog(EXEDIO))("the JUnit Platform Console Launcher's `Failures (N):` report", () => {
  it("quotes its first failure whole: the header, the test, its exception and frames down to the test's own frame (exedio; before: only the `14 tests failed` count and Ant's verdict)", async () => {
    const lines = await evidenceOf(EXEDIO);
    const header = wildLineNo(EXEDIO, /\[junit\] Failures \(14\):/);
    const testFrame = wildLineNo(EXEDIO, /VaultFileServicePropertiesProbeTest\.probeGroups\(VaultFileServicePropertiesProbeTest\.java:555\)/);
    expect(lines[0]).toBe(header);
    for (let n = header; n <= testFrame; n++) expect(lines).toContain(n);
    // the JDK's reflection under the test's frame is the way in, and the next failure of the list is not quoted
    expect(lines).not.toContain(testFrame + 1);
    expect(lines).not.toContain(wildLineNo(EXEDIO, /JUnit Jupiter:VaultFileServicePosixGroupTest:putStreamInfo\(\)/));
  });
});
