import { describe, expect, it } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { realPin } from '../helpers/real-pin.js';

/**
 * With the breaking commit's diff, when the function the innermost frame raised in was changed, a changed
 * line on an outer frame of the same stack (the call that led there) ranks below the raising frame's line
 * and its function's changed lines. Real case (fixtures/real-pins): Unidata/netcdf4-python 247165047,
 * `ValueError: Cannot apply_along_axis when any iteration dimensions are 0` raised in netCDF4/utils.py:382
 * (`_StartCountStride`, which the breaking commit changed at 186, 243, 292; the real fix changed 186-256),
 * called from netCDF4/_netCDF4.pyx:3798, whose call the commit changed too (new arguments). Before this rule
 * the call's line was pinned (_netCDF4.pyx:3798, the wrong file); without the diff utils.py:382 is.
 * Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const pin = realPin('Unidata-netcdf4-python-247165047');
describe.skipIf(!pin.available)('an outer frame\'s changed call below the changed function that raised (real netcdf4-python failure)', () => {
  it('pins the raising frame\'s file, its function\'s changed line next, the outer call below', async () => {
    const { tree, log } = pin.checkout();
    const { diagnosis } = await diagnoseWithTrace({ log, repo: tree, base: pin.c.base });
    const pins = diagnosis.findings.map((f) => `${f.file}:${f.line}`);
    expect(pins[0]).toBe('netCDF4/utils.py:382');
    expect(pins.slice(0, 3)).toContain('netCDF4/utils.py:186');
    expect(pins.indexOf('netCDF4/_netCDF4.pyx:3798')).toBeGreaterThan(pins.indexOf('netCDF4/utils.py:186'));
  }, 180_000);
});
