import { describe, expect, it } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { ASSERTION_HELPER } from '../../src/locate/from-signals.js';
import { realPin } from '../helpers/real-pin.js';

/**
 * sannies/mp4parser, Travis job 408889048 (fixtures/real-pins/sannies-mp4parser-408889048: the BugSwarm
 * dissection's failing log, the failing commit's tree): `H264TrackImplTest.freeze` (line 52) hands the muxed
 * file to `BoxComparator.check`, a comparison helper kept in isoparser's main sources, whose `checkBox`
 * (line 59) calls `org.junit.Assert.assertArrayEquals`, which fails. The helper only checked; the real fix
 * changed the test (lines 48-49). Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const pin = realPin('sannies-mp4parser-408889048');

describe.skipIf(!pin.available)('an own frame that called the test framework\'s assert (real mp4parser failure)', () => {
  it('pins the test, not the comparison helper, with no diff', async () => {
    const { tree, log } = pin.checkout();
    const { diagnosis, trace } = await diagnoseWithTrace({ log, repo: tree });
    expect(diagnosis.findings[0]!.file).toBe('muxer/src/test/java/org/mp4parser/muxer/tracks/H264TrackImplTest.java');
    const helper = trace.candidates.find((x: { file: string; line: number }) => x.file === 'isoparser/src/main/java/org/mp4parser/support/BoxComparator.java' && x.line === 59)!;
    expect(helper.notes).toContain(ASSERTION_HELPER);
  }, 120_000);
});
