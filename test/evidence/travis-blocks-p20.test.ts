import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { unifiedDiffEnd } from '../../src/evidence/unified-diff.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Travis logs of p20travis's round (fixtures/wild/travis-*: BugSwarm's analyzer data and TravisTorrent's
 * development logs; each label.json names its source). Read from the mirrors `fetch` brought (not
 * committed): without them (CI, a fresh clone) these tests are skipped.
 */
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const run = async (id: string) => diagnose({ log: wildLog(id) });

const MD = 'travis-python-markdown-tox-syntax-error';
describe.skipIf(!hasWildLog(MD))('a unified diff under a failure message', () => {
  it('is quoted whole, its context lines counted by its hunk header (Python-Markdown)', async () => {
    const d = await run(MD);
    const ev = d.evidence.map((e) => e.line);
    const title = wildLineNo(MD, /^MarkdownSyntaxError: TestSyntax: "extensions\/attr_list"/);
    const old = wildLineNo(MD, /^--- \/home\/travis\/.*attr_list\.html/);
    // the hunk `@@ -64,7 +64,7 @@`: 7 lines a side, the last one `+<p>Extra <em foo="bar">equals signs</em></p>`
    const last = wildLineNo(MD, /^\+<p>Extra <em foo="bar">equals signs<\/em><\/p>/);
    expect(ev[0]).toBe(title);
    expect(ev).toEqual(expect.arrayContaining(range(old, last)));
    // nose's captured logging after the diff is not the comparison
    expect(ev).not.toContain(wildLineNo(MD, /^-+ >> begin captured logging << -+/));
  });
});

const SC = 'travis-python-scrapy-trial';
describe.skipIf(!hasWildLog(SC))("a traceback in a failing test's captured output", () => {
  it("is context: pytest's first failure section is quoted first, not a later test's captured log (scrapy)", async () => {
    const d = await run(SC);
    const ev = d.evidence.map((e) => e.line);
    const title = wildLineNo(SC, /_+ TestCloseSpider\.test_closespider_errorcount _+/);
    expect(ev[0]).toBe(title);
    expect(ev).toContain(wildLineNo(SC, /E {3}FailTest: 'finished' != 'closespider_errorcount'/));
    // the `ImportError` traceback scrapy logged under `---- Captured stderr call ----` is not quoted
    const captured = wildLineNo(SC, /\[scrapy\.utils\.signal\] ERROR: Error caught on signal handler/);
    expect(ev).not.toContain(captured);
    expect(ev).not.toContain(captured + 1);
  });
});

describe('unifiedDiffEnd', () => {
  const lines = (texts: string[]) => texts.map((text, i) => ({ n: i + 1, text }));
  it('reads each hunk for the lines its header counts, and no further', () => {
    const l = lines(['--- a.html', '+++ b.html', '@@ -1,3 +1,3 @@', ' same', '-old', '+new', ' same', ' not the diff']);
    expect(unifiedDiffEnd(l as never, 0)).toBe(6);
  });
  it('is -1 where no diff starts (`---` alone, a rule)', () => {
    expect(unifiedDiffEnd(lines(['-----', '+++ b', '@@ -1 +1 @@']) as never, 0)).toBe(-1);
    expect(unifiedDiffEnd(lines(['--- a', 'text']) as never, 0)).toBe(-1);
  });
});
