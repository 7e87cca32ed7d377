import { describe, expect, it } from 'vitest';
import { realPin } from '../helpers/real-pin.js';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { INHERITED_TEST_NOTE } from '../../src/locate/inherited-test.js';

/**
 * haraldk/TwelveMonkeys, Travis job 90933740 (fixtures/real-pins/haraldk-TwelveMonkeys-90933740: the BugSwarm
 * dissection's failing log, the failing commit's tree): ten tests that `ImageReaderAbstractTest` declares fail
 * when `WMFImageReaderTest` runs them (`WMFImageReaderTest>ImageReaderAbstractTest.testRead:225 … has wrong width:
 * 133 expected:<841> but was:<133>`); every other reader's subclass passes them. The base class's line was
 * pinned; the real fix changed the subclass's test data, `new TestData(…"/wmf/test.wmf"), new Dimension(841, 673))`
 * (WMFImageReaderTest.java:55). Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const pin = realPin('haraldk-TwelveMonkeys-90933740');
const SUB = 'imageio/imageio-batik/src/test/java/com/twelvemonkeys/imageio/plugins/wmf/WMFImageReaderTest.java';
const BASE = 'imageio/imageio-core/src/test/java/com/twelvemonkeys/imageio/util/ImageReaderAbstractTest.java';

describe.skipIf(!pin.available)('a base class\'s test failing in one subclass (real TwelveMonkeys failure)', () => {
  it('pins the subclass\'s line spelling the expected value, the base\'s line next, with and without the diff', async () => {
    const { tree, log } = pin.checkout();
    for (const base of [undefined, pin.c.base as string]) {
      const { diagnosis, trace } = await diagnoseWithTrace({ log, repo: tree, ...(base ? { base } : {}) });
      expect(`${diagnosis.findings[0]!.file}:${diagnosis.findings[0]!.line}`).toBe(`${SUB}:55`);
      expect(`${diagnosis.findings[1]!.file}:${diagnosis.findings[1]!.line}`).toBe(`${BASE}:225`);
      expect(trace.candidates.find((c: { file: string }) => c.file === SUB)!.notes).toContain(INHERITED_TEST_NOTE);
    }
  }, 180_000);
});
