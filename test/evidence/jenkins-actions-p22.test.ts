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
  it("quotes the failed test case, its message, exception and frames, with the suite's tally and verdict (jna; before: only `BUILD FAILED`)", async () => {
    const lines = await evidenceOf(JNA);
    const header = wildLineNo(JNA, /\[junit\] Testcase: testInvokeCallback\(com\.sun\.jna\.DirectCallbacksTest\):\tFAILED/);
    expect(lines).toContain(header);
    expect(lines).toContain(wildLineNo(JNA, /\[junit\] Tests run: 53, Failures: 1, /));
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
