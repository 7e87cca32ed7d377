import { describe, expect, it } from 'vitest';
import { realPin } from '../helpers/real-pin.js';
import { diagnoseWithTrace } from '../../src/diagnose.js';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';

/**
 * A change in a file the failing test imports, where the call graph reached nothing, is spared the "unreached"
 * discount only when the tests use that module under its own name and name none of its definitions (a UMD module,
 * golden case cucumber-js-slugify-locale-after-charmap). Two real cases (fixtures/real-pins) where the tests do
 * name the file's definitions, or never name the file at all, and the real fix changed the test's line:
 * - asciimoo/searx 306035079: test_google.py calls `google.request`, a name every searx engine defines; the
 *   breaking commit changed google.py's default language, and the fix changed the test's expected host (line 31).
 * - square/retrofit 104397133: ProtoConverterFactoryTest fails on a converter list; the breaking commit added a
 *   scalars converter in the same Java package, which the test never names; the fix changed the test (line 90).
 * Before this narrowing both pinned the changed source file with the diff. Runs where `fetch` brought the mirrors.
 */
const cases = [
  ['asciimoo-searx-306035079', 'tests/unit/engines/test_google.py:31'],
  ['square-retrofit-104397133', 'retrofit-converters/protobuf/src/test/java/retrofit2/ProtoConverterFactoryTest.java:90'],
] as const;

for (const [id, want] of cases) {
  const pin = realPin(id);
  const c = pin.c;
  describe.skipIf(!pin.available)(`an imported change the graph did not reach stays unreached (real ${c.repo} failure)`, () => {
    it('pins the failing test line the real fix changed, not the changed source file', async () => {
      const { tree, log } = pin.checkout();
      const { diagnosis } = await diagnoseWithTrace({ log, repo: tree, base: c.base });
      expect(diagnosis.findings.map((f) => `${f.file}:${f.line}`)[0]).toBe(want);
    }, 180_000);
  });
}


describe("a package's index file, which tests bind to a name of their own, is used whole", () => {
  it("tape's failures in test/num.js (`var parse = require('../')`) are the change at index.js:16, not the test's line", async () => {
    const r = await evaluateCase('tape-number-exponent-minimist', diagnoseWithTrace, {});
    expect(r.diagnosis.findings.map((f: { file: string; line: number }) => `${f.file}:${f.line}`)[0]).toBe('index.js:16');
    // without the diff, the test's failing line is all the log proves
    const bare = await evaluateCase('tape-number-exponent-minimist', diagnoseWithTrace, { noBase: true });
    expect(bare.diagnosis.findings[0]?.file).toBe('test/num.js');
  });
});
