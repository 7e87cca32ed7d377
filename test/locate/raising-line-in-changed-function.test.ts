import { describe, expect, it } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { realPin } from '../helpers/real-pin.js';

/**
 * With the breaking commit's diff, a hunk changed elsewhere in the function the innermost frame raised in
 * ranks just below that frame's own line: the diff says which function broke, the frame says which line.
 * Two real cases (fixtures/real-pins: the BugSwarm dissection's failing log, the failing commit's tree, its
 * parent as --base), both pinned right without the diff and wrong with it before this rule:
 * - openmicroscopy/bioformats 251797108: `NullPointerException` at ImagePlusReader.constructSliceLabel
 *   (ImagePlusReader.java:596, a changed line the real fix changed again); the breaking commit also changed
 *   lines 620-630 of that method, and line 630 was pinned.
 * - indico/indico 337640094: `ImportError: No module named groups` at indico/util/user.py:43 (an import inside
 *   `principal_from_fossil`, the line the real fix changed); the breaking commit changed that function's
 *   signature (41) and its `EventRole` branch (100), and line 100 was pinned.
 * Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const cases = [
  ['openmicroscopy-bioformats-251797108', 'components/bio-formats-plugins/src/loci/plugins/in/ImagePlusReader.java:596', 'components/bio-formats-plugins/src/loci/plugins/in/ImagePlusReader.java:630'],
  ['indico-indico-337640094', 'indico/util/user.py:43', 'indico/util/user.py:100'],
] as const;
for (const [id, want, changedBeside] of cases) {
  const pin = realPin(id);
  describe.skipIf(!pin.available)(`the raising frame's line in a function the diff changed (real ${pin.c.repo} failure)`, () => {
    it('pins the line the frame raised at, above the other changed lines of its function', async () => {
      const { tree, log } = pin.checkout();
      const { diagnosis } = await diagnoseWithTrace({ log, repo: tree, base: pin.c.base });
      const pins = diagnosis.findings.map((f) => `${f.file}:${f.line}`);
      expect(pins[0]).toBe(want);
      // The other changed line is still a finding, below the frame's.
      expect(pins.indexOf(changedBeside)).toBeGreaterThan(0);
    }, 180_000);
  });
}
