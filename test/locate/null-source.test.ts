import { describe, expect, it } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { nullMadeBy } from '../../src/locate/null-source.js';
import { realPin } from '../helpers/real-pin.js';

/**
 * With the breaking commit's diff, for a failure that dereferenced a null, the changed line that makes one (a
 * declaration that lost its value, a default dropped, a null assigned) goes above the commit's other changes.
 * Real case (fixtures/real-pins): openpnp/openpnp 110833060, `java.lang.Exception: MachineMovementError null`
 * (the job listener appends the NullPointerException's null message); the breaking commit rewrote
 * ReferenceCamera (300 lines) and turned `private LensCalibration calibration = new LensCalibration();` into
 * `private LensCalibrationParams calibration;` (line 82), which `undistort` then dereferences. The real fix gave
 * the field its value back (accepted 82-83). Before this rule ReferenceCamera.java:191 (an edited `if` in
 * `transformImage`) was pinned. Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const pin = realPin('openpnp-openpnp-110833060');
describe.skipIf(!pin.available)('the change that makes a null (real openpnp failure)', () => {
  it('pins the field that lost its initializer, with the diff', async () => {
    const { tree, log } = pin.checkout();
    const { diagnosis } = await diagnoseWithTrace({ log, repo: tree, base: pin.c.base });
    expect(`${diagnosis.findings[0]?.file}:${diagnosis.findings[0]?.line}`).toBe('src/main/java/org/openpnp/machine/reference/ReferenceCamera.java:82');
  }, 180_000);
});

describe('which changed lines make a null', () => {
  it('a declaration that lost its value, a default dropped, a null assigned', () => {
    const removed = ['    private LensCalibration calibration = new LensCalibration();'];
    expect(nullMadeBy('    private LensCalibrationParams calibration;', removed, ['    private LensCalibrationParams calibration;'])).toMatch(/calibration/);
    // mocha-before-hook-typeerror (golden): createRouter lost its basePath default.
    const header = "function createRouter({ basePath = '' } = {}) {";
    expect(nullMadeBy('function createRouter({ basePath } = {}) {', [header], ['function createRouter({ basePath } = {}) {'])).toMatch(/basePath/);
    expect(nullMadeBy('        self.sess = None', ['        self.sess = self.session_factory()'], ['        self.sess = None'])).toMatch(/null/);
  });
  it('not a value moved elsewhere, a use, or a return of the same name', () => {
    const removed = ['    int total = 0;'];
    expect(nullMadeBy('    int total;', removed, ['    int total;', '    total = 0;'])).toBeUndefined();
    expect(nullMadeBy('    return total;', removed, ['    return total;'])).toBeUndefined();
    expect(nullMadeBy('    log(total);', removed, ['    log(total);'])).toBeUndefined();
  });
});

describe('a null the removed side already had', () => {
  it('is not a new one (pychron 144596941: a default kept while another parameter changed)', () => {
    const removed = ['    def __init__(self, sess=None, commit=True, rollback=True, parent=None):'];
    const added = '    def __init__(self, sess=None, commit=True, rollback=False, parent=None):';
    expect(nullMadeBy(added, removed, [added])).toBeUndefined();
  });
});
