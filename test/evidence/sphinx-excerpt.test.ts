import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';

/**
 * The guard for Sphinx's located report that ends in a colon and announces its excerpt, on output recorded
 * here (fixtures/recorded/sphinx/record.sh: sphinx-build 5.3 -W on tornado's user guide), so it runs
 * without the mirrors that known-misses-travis.test.ts reads the symfony-cmf-docs log from.
 */
describe("Sphinx's report with its excerpt (recorded)", () => {
  it('quotes the directive the report announces, across the blank line after its one message line (tornado guide)', async () => {
    const d = await diagnose({ log: 'fixtures/recorded/sphinx/sphinx-build.log' });
    const text = d.evidence.map((e) => e.text);
    expect(d.category).toBe('compile');
    expect(d.findings[0]).toMatchObject({ file: 'docs/guide/structure.rst', line: 140 });
    expect(text).toContainEqual(expect.stringMatching(/structure\.rst:140:Error in "testcode" directive:$/));
    expect(text).toContainEqual('unknown option: "hidden".');
    expect(text).toContainEqual('.. testcode::');
    expect(text).toContainEqual('    :hidden:');
    // The excerpt is the directive's head, up to its blank line: not the code sample under it.
    expect(text.some((t) => t.includes('class MyFormHandler'))).toBe(false);
  });
});
