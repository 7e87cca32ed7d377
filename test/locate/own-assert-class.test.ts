import { describe, expect, it } from 'vitest';
import { realPin } from '../helpers/real-pin.js';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { ASSERTION_HELPER } from '../../src/locate/from-signals.js';

/**
 * GoClipse/goclipse, Travis job 92997104 (fixtures/real-pins/GoClipse-goclipse-92997104: the BugSwarm
 * dissection's failing log, the failing commit's tree): `LangAutoEditStrategyTest.testSmartIndent` fails with
 * `melnorme.utilbox.core.Assert$AssertFailedException`, raised by the project's own assertion class
 * (`Assert$AssertHandler.handleAssert`, Assert.java:62, in its main sources) under `CommonTestUtils.assertEquals`.
 * Those frames were the innermost in-repo frame and the pin; the real fix changed the test's expectation
 * (LangAutoEditStrategyTest.java:258). Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const pin = realPin('GoClipse-goclipse-92997104');

describe.skipIf(!pin.available)('a project\'s own assertion class (real GoClipse failure)', () => {
  it('pins the test file, not the assertion class nor the helper that called it, with no diff', async () => {
    const { tree, log } = pin.checkout();
    const { diagnosis, trace } = await diagnoseWithTrace({ log, repo: tree });
    expect(diagnosis.findings[0]!.file).toBe('plugin_ide.core.tests/src-lang/melnorme/lang/ide/core/text/format/LangAutoEditStrategyTest.java');
    // The assertion class's frames are no candidates, as JUnit's frames are none (its definitions may stay leads).
    expect(trace.candidates.some((x: { file: string; cause: string }) => x.cause === 'frame' && x.file.endsWith('melnorme/utilbox/core/Assert.java'))).toBe(false);
    const helper = trace.candidates.find((x: { file: string; line: number }) => x.file.endsWith('melnorme/utilbox/tests/CommonTestUtils.java') && x.line === 53)!;
    expect(helper.notes).toContain(ASSERTION_HELPER);
  }, 120_000);
});
