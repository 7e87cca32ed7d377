import { describe, expect, it } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { pythonParams } from '../../src/locate/call-signature.js';
import { realPin } from '../helpers/real-pin.js';

/**
 * A Python TypeError about a call's arguments: the one definition of the called name that cannot take the call
 * as reported goes just above the call's line. Real cases (fixtures/real-pins): NMGRL/pychron 262390888,
 * `TypeError: _get_isotope() takes exactly 4 arguments (5 given)` at usgs_menlo_source.py:121, one of seven
 * calls passing four arguments to `def _get_isotope(self, f, name, ncnts)` (line 138, the line the real fix
 * changed); before, the call (121) was pinned in both modes. NMGRL/pychron 129029522, `set_extract_state() got an
 * unexpected keyword argument 'color'` raised at pyscript.py:820 (`getattr(man, f)(*a, **k)`): of six
 * definitions of `set_extract_state`, only the test double's `def set_extract_state(self, state)`
 * (tests/external_pipette.py:28) takes no `color` and no `**kw`, and the real fix gave it one; before,
 * pyscript.py:820 was pinned. Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
for (const [id, want] of [
  ['NMGRL-pychron-262390888', 'pychron/data_mapper/sources/usgs_menlo_source.py:138'],
  ['NMGRL-pychron-129029522', 'pychron/external_pipette/tests/external_pipette.py:28'],
] as const) {
  const pin = realPin(id);
  describe.skipIf(!pin.available)(`the definition a call cannot fit (real pychron failure ${id})`, () => {
    it('pins the definition, without and with the diff', async () => {
      const { tree, log } = pin.checkout();
      for (const base of [undefined, pin.c.base]) {
        const { diagnosis } = await diagnoseWithTrace({ log, repo: tree, ...(base ? { base } : {}) });
        expect(`${diagnosis.findings[0]?.file}:${diagnosis.findings[0]?.line}`).toBe(want);
      }
    }, 240_000);
  });
}

describe('a def\'s parameters', () => {
  it('reads plain, defaulted, starred and keyword-only parameters across lines', () => {
    expect(pythonParams(['    def _get_isotope(self, f, name, ncnts):'], 1)!.map((p) => p.name)).toEqual(['self', 'f', 'name', 'ncnts']);
    const p = pythonParams(['    def set_extract_state(self, state, flash=0.75,', "                          color='green', *args, key=None, **kw):"], 1)!;
    expect(p.map((x) => [x.name, x.star, x.hasDefault, x.keywordOnly])).toEqual([
      ['self', 0, false, false], ['state', 0, false, false], ['flash', 0, true, false], ['color', 0, true, false],
      ['args', 1, false, false], ['key', 0, true, true], ['kw', 2, false, true],
    ]);
    expect(pythonParams(['x = 1'], 1)).toBeUndefined();
  });
});
