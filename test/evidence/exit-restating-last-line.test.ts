import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * A traceback that ends with a wrapper's restated exit (Python's `CalledProcessError: Command '…' returned
 * non-zero exit status N.`) says only that the child it ran failed: the child's own error above it is the quote.
 * Recorded here: pybind/cmake_example's `setup.py build_ext` over a g++ error (fixtures/wild/rec-setup-py-cmake-gcc-undeclared).
 */
describe("a traceback ending in Python's CalledProcessError", () => {
  const id = 'rec-setup-py-cmake-gcc-undeclared';

  it("quotes g++'s error block and leaves setuptools' frames and the CalledProcessError out", async () => {
    const d = await diagnose({ log: wildLog(id) });
    const ev = d.evidence.map((e) => e.line);
    const head = wildLineNo(id, /: In function /);
    const error = wildLineNo(id, /main\.cpp:26:19: error:/);
    expect(ev[0]).toBe(head);
    expect(ev).toContain(error);
    // Nothing from the traceback: its first frame, or any line after make's own error.
    expect(ev.every((n) => n < wildLineNo(id, /^gmake\[2\]: \*\*\*/))).toBe(true);
    expect(ev).not.toContain(wildLineNo(id, /^Traceback \(most recent call last\):/) + 3);
    expect(ev).not.toContain(wildLineNo(id, /CalledProcessError: Command/));
    expect(d.category).toBe('compile');
  });
});
