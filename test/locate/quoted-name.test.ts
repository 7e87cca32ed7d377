import { describe, expect, it } from 'vitest';
import { realPin } from '../helpers/real-pin.js';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { QUOTED_NAME_NOTE } from '../../src/locate/quoted-name.js';

/**
 * openaid-IATI/OIPA, Travis job 91842303 (fixtures/real-pins/zimmerman-zimmerman-OIPA-91842303: the BugSwarm
 * dissection's failing log on the failing commit's tree, no diff). Four Django tests fail with `TypeError:
 * 'parent_object' is an invalid keyword argument for this function`, raised in Django's model constructor
 * that factory_boy called for `iati_factory.NarrativeFactory.create(related_object=…)` on the test's line
 * (test_serializers.py:285), which does not spell `parent_object`. The project's NarrativeFactory declares
 * `parent_object = SubFactory(ActivityFactory)` at iati_factory.py:44, the line the real fix changed.
 * Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const pin = realPin('zimmerman-zimmerman-OIPA-91842303');

describe.skipIf(!pin.available)('a name the error quotes, in what the failing line called (real OIPA failure)', () => {
  it("pins the called factory's line that spells the quoted name, above the test's line", async () => {
    const { tree, log } = pin.checkout();
    const { diagnosis, trace } = await diagnoseWithTrace({ log, repo: tree });
    const top = diagnosis.findings[0]!;
    expect(`${top.file}:${top.line}`).toBe('OIPA/iati/factory/iati_factory.py:44');
    const lead = trace.candidates.find((x: { file: string; line: number }) => x.file === top.file && x.line === 44)!;
    expect(lead.notes).toContain(QUOTED_NAME_NOTE);
    // The test's own line stays the next lead.
    expect(diagnosis.findings.slice(1, 3).map((f) => f.file)).toContain('OIPA/api/activity/tests/test_serializers.py');
  }, 180_000);
});
