import { describe, expect, it } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { dereferencesOnlyParameters, parametersOf } from '../../src/locate/null-from-caller.js';
import { realPin } from '../helpers/real-pin.js';

/**
 * With the breaking commit's diff, a null dereferenced on a line that reads it only through a parameter of a
 * function the commit did not change was handed in by the caller: the caller's frame line goes just above the
 * raising line. Real case (fixtures/real-pins): openpnp/openpnp 213669200, `java.lang.NullPointerException`
 * at OpenCvUtils.toBufferedImage (OpenCvUtils.java:44, `if (m.type() == CvType.CV_8UC1)`, `m` its parameter),
 * called from `saveDebugImage(…, Mat mat)` at 242, which passed a null Mat; the breaking commit changed only
 * HelpRequestDialog. The real fix added `if (mat == null) return;` at the top of that caller (accepted 241-242).
 * Before this rule OpenCvUtils.java:44 was pinned (the right file, not a fixed line).
 * Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const pin = realPin('openpnp-openpnp-213669200');
describe.skipIf(!pin.available)('a null handed to an unchanged function: its caller (real openpnp failure)', () => {
  it('pins the caller frame\'s line above the raising line, with the diff', async () => {
    const { tree, log } = pin.checkout();
    const { diagnosis } = await diagnoseWithTrace({ log, repo: tree, base: pin.c.base });
    const pins = diagnosis.findings.map((f) => `${f.file}:${f.line}`);
    expect(pins[0]).toBe('src/main/java/org/openpnp/util/OpenCvUtils.java:242');
    expect(pins[1]).toBe('src/main/java/org/openpnp/util/OpenCvUtils.java:44');
  }, 180_000);
});

describe('what the raising line dereferences (lines of the same case and of golden cases)', () => {
  it('reads a Java method\'s parameters across its header', () => {
    const lines = ['    public static BufferedImage toBufferedImage(Mat m) {', '        Integer type = null;'];
    expect([...parametersOf(lines, 1, 'OpenCvUtils.java')]).toEqual(['m']);
    const java = ['  public final void open(final Map<String, Object> execEnvVars,', '      @Nullable int[] ids) throws DbException {'];
    expect([...parametersOf(java, 1, 'Operator.java')]).toEqual(['execEnvVars', 'ids']);
    expect([...parametersOf(['def _get_isotope(self, f, name, ncnts=None):'], 1, 'src.py')]).toEqual(['f', 'name', 'ncnts']);
    expect([...parametersOf(['function joinPath(base, path) {'], 1, 'src/router.js')]).toEqual(['base', 'path']);
  });
  it('fires on a bare parameter, not on a field chain, a call result or a member of a parameter', () => {
    const npe = 'java.lang.NullPointerException';
    expect(dereferencesOnlyParameters('        if (m.type() == CvType.CV_8UC1) {', new Set(['m']), npe)).toBe(true);
    expect(dereferencesOnlyParameters('      return ((LocalFragmentResourceManager) execEnvVars.get(KEY)).getFragment();', new Set(['x']), npe)).toBe(false);
    // jest-typeerror-in-source: the undefined is `pr.labels`, a member the function reads, not the parameter `pr`.
    expect(dereferencesOnlyParameters('  const names = pr.labels.map((l) => l.name.toLowerCase());', new Set(['pr']), "TypeError: Cannot read properties of undefined (reading 'map')")).toBe(false);
    // maven-npe-in-source: Java names a method's return value as the null.
    expect(dereferencesOnlyParameters('    return customer.email().toLowerCase();', new Set(['customer']), 'java.lang.NullPointerException: Cannot invoke "String.toLowerCase()" because the return value of "com.acme.orders.Customer.email()" is null')).toBe(false);
    expect(dereferencesOnlyParameters('    return m.rows();', new Set(['m']), 'java.lang.NullPointerException: Cannot invoke "Mat.rows()" because "m" is null')).toBe(true);
  });
});
