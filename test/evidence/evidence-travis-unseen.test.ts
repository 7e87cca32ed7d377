import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Blocks that were cut short or overran on first sight of Travis logs of projects the rules had never
 * seen (fixtures/wild/travis-dissection-*: tdurieux/BugSwarm-dissection, each label.json names its source).
 */
const wild = wildLog;
// These logs are read from the BugSwarm-dissection mirror `fetch` brought (not committed): without it
// (CI, a fresh clone) the file is skipped.
const MIRROR = hasWildLog('travis-dissection-okio-maven-cannot-find-symbol');
const lineNo = wildLineNo;
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const evidenceOf = async (id: string) => (await diagnose({ log: wild(id) })).evidence.map((e) => e.line);

describe.skipIf(!MIRROR)("Maven's COMPILATION ERROR block", () => {
  it('ends at its `[INFO] 2 errors` count, not in the reactor summary or the goal failure restating it (okio)', async () => {
    const id = 'travis-dissection-okio-maven-cannot-find-symbol';
    const head = lineNo(id, /\[ERROR\] COMPILATION ERROR/);
    const count = lineNo(id, /\[INFO\] 2 errors/);
    expect(await evidenceOf(id)).toEqual(range(head, count));
  });
});

describe.skipIf(!MIRROR)("unittest's failure title", () => {
  it('heads the traceback across the test docstring and the rule under it (cot, django-coupons)', async () => {
    for (const [id, exc] of [
      ['travis-dissection-cot-tox-unittest-fail', /^AssertionError: False is not true/],
      ['travis-dissection-django-coupons-tox-unittest-error', /^AttributeError: 'ErrorDict'/],
    ] as const) {
      const title = lineNo(id, /^(?:FAIL|ERROR): test_/);
      const ev = await evidenceOf(id);
      expect(ev[0]).toBe(title);
      expect(ev).toEqual(expect.arrayContaining(range(title, lineNo(id, exc))));
    }
  });

  it('is not a title two lines above a rule of equals signs (pip errors above `F..` and unittest\'s `=====`)', async () => {
    const id = 'rec-gha-pip-index-refused-then-test';
    const title = lineNo(id, /FAIL: test_isleap/);
    const ev = await evidenceOf(id);
    expect(ev[0]).toBe(title);
    expect(ev).not.toContain(lineNo(id, /No matching distribution found/));
  });
});

describe.skipIf(!MIRROR)("surefire 2's plain test header", () => {
  it('quotes the class count, the header, the whole multi-line comparison and the frames down to the test\'s own (javapoet)', async () => {
    const id = 'travis-dissection-javapoet-surefire-comparison';
    const count = lineNo(id, /^Tests run: 9, Failures: 1/);
    const own = lineNo(id, /at com\.squareup\.javapoet\.JavaFileTest\.conflictingSimpleNames/);
    const ev = await evidenceOf(id);
    expect(ev.slice(0, own - count + 1)).toEqual(range(count, own));
    expect(ev).not.toContain(own + 1);
  });
});

describe.skipIf(!MIRROR)("pytest's title of a short test name", () => {
  it('is kept at the head of its condensed block, though it has a banner\'s shape (SmokeDetector, hy)', async () => {
    for (const [id, title] of [
      ['travis-dissection-smokedetector-pytest-assert', /_+ test_checkpost _+/],
      ['travis-dissection-hy-pytest-subprocess', /_+ test_bin_hy_stdin_multiline _+/],
    ] as const) expect((await evidenceOf(id))[0]).toBe(lineNo(id, title));
  });
});

describe.skipIf(!MIRROR)('the category from the words of the block', () => {
  it("Python's `invalid syntax` is a compile error (OCA's maintainer-quality-tools)", async () => {
    const id = 'travis-dissection-oca-warehouse-mqt-syntax';
    const d = await diagnose({ log: wild(id) });
    expect(d.evidence.map((e) => e.line)).toContain(lineNo(id, /^invalid syntax/));
    expect(d.category).toBe('compile');
  });

  it("tox's `ERROR: could not install deps` is a dependency failure (mimic)", async () => {
    expect((await diagnose({ log: wild('travis-dissection-mimic-tox-invalid-requirement-retried') })).category).toBe('dependency');
  });
});

describe.skipIf(!MIRROR)("surefire's Results summary", () => {
  it('quotes the `[ERROR] Errors:` list with the count under it, beside the failure it names (spring-boot-admin, Actions)', async () => {
    const id = 'gha-maven-2003301608';
    const list = lineNo(id, /\[ERROR\] Errors: /);
    const count = lineNo(id, /\[ERROR\] Tests run: 33, Failures: 0, Errors: 1/);
    expect(await evidenceOf(id)).toEqual(expect.arrayContaining([...range(list, list + 4), count]));
  });
});
