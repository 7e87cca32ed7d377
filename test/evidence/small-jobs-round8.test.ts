import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { withoutDomDump } from '../../src/evidence/dom-dump.js';
import { isPassingContext, withoutLeadingPassingContext } from '../../src/evidence/passing-context.js';
import type { Block } from '../../src/evidence/block.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Issue 14's eighth round on small projects' Actions jobs (session 31, p23act): where precision and the first
 * evidence line are lost on the `gha-small-*` logs. One rule per test, each on the real log that showed it (read
 * from its fetched mirror; skipped where the mirror is not on the machine), and a small case of the same shape
 * for the module alone.
 */
const evidenceOf = async (id: string) => (await diagnose({ log: wildLog(id) })).evidence.map((e) => e.line);
const onMirror = (id: string) => (hasWildLog(id) ? it : it.skip);
const quoteOf = (id: string): number[][] =>
  JSON.parse(readFileSync(new URL(`../../fixtures/wild/${id}/label.json`, import.meta.url), 'utf8')).quote as number[][];

describe("Testing Library's DOM dump (src/evidence/dom-dump.ts)", () => {
  const merr = 'gha-small-vitest-shard-dom-dump-utf16';
  onMirror(merr)("the page dumped under vitest's TestingLibraryElementError is left out and the test's frame is quoted (MERR, UTF-16 `gh run view` text)", async () => {
    // The label: the FAIL title and the error (2771-2772), the test's frame and code frame (3021-3027);
    // between them, Testing Library's 240-line dump of the page (`Ignored nodes: …`, `<body>` … `</body>`).
    const [[fail], [frame, frameEnd]] = quoteOf(merr) as [[number, number], [number, number]];
    const lines = await evidenceOf(merr);
    // Before the rule: the vitest banner, the title, the error and 37 lines of markup; the frame never came.
    expect(lines[0]).toBe(fail);
    expect(lines).toContain(frame);
    expect(lines).toContain(frameEnd);
    expect(lines.filter((n) => n > fail + 2 && n < frame - 3)).toEqual([]);
  });

  it('cuts the dump from its note to `</body>`, and goes on after it to the first blank line when the block stopped inside it', () => {
    const text = [
      'TestingLibraryElementError: Unable to find an element with the text: Complete.',
      '',
      'Ignored nodes: comments, script, style',
      '<body>',
      '  <div />',
      '</body>',
      ' ❯ src/a.test.tsx:9:3',
      '    9| screen.getByText("Complete")',
      '',
      'next',
    ];
    const lines = text.map((t, i) => ({ n: i + 1, text: t }));
    const position = new Map(lines.map((l, i) => [l.n, i] as const));
    expect(withoutDomDump([1, 3, 4, 5], lines, position)).toEqual([1, 7, 8]);
    expect(withoutDomDump([1, 3, 4, 5, 6, 7], lines, position)).toEqual([1, 7]);
    // No dump, or one that never closes: as it was.
    expect(withoutDomDump([1, 7, 8], lines, position)).toEqual([1, 7, 8]);
    expect(withoutDomDump([1, 3, 4], lines.slice(0, 5), position)).toEqual([1, 3, 4]);
  });
});

describe("a passing run's progress above the failure (src/evidence/passing-context.ts)", () => {
  const go = 'gha-small-go-test-fail-merger';
  onMirror(go)("go test's `=== RUN` announcement is not the failure's first line (merger's -v run)", async () => {
    const run = wildLineNo(go, /=== RUN {3}TestMergeComposeFragments_NestedEnvVars/);
    const lines = await evidenceOf(go);
    expect(lines).not.toContain(run);
    expect(lines[0]).toBe(run + 1);
  });

  const playwright = 'gha-small-playwright-four-browsers-timeout';
  onMirror(playwright)("Playwright's dot-reporter rows above its first failure are not quoted (PowerPlatform-OpenSource-Hub)", async () => {
    const first = wildLineNo(playwright, /^\S+ {3}1\) \[chromium\]/);
    const lines = await evidenceOf(playwright);
    expect(lines[0]).toBe(first);
    expect(lines.filter((n) => n < first)).toEqual([]);
  });

  const vstest = 'gha-small-dotnet-test-mstest-column';
  onMirror(vstest)("vstest's `A total of 1 test files matched the specified pattern.` does not open the failure's block", async () => {
    const matched = wildLineNo(vstest, /A total of 1 test files matched the specified pattern\./);
    const lines = await evidenceOf(vstest);
    expect(lines).not.toContain(matched);
    expect(lines[0]).toBeGreaterThan(matched);
  });

  it('reads the shapes, and cuts them only at a block head', () => {
    expect(isPassingContext('=== RUN   TestX')).toBe(true);
    expect(isPassingContext('··········×··F·····°··')).toBe(true);
    expect(isPassingContext('....................F.....E....')).toBe(true);
    expect(isPassingContext('A total of 3 test files matched the specified pattern.')).toBe(true);
    expect(isPassingContext('--- FAIL: TestX (0.00s)')).toBe(false);
    expect(isPassingContext('aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=')).toBe(false);
    const text = ['=== RUN   TestX', '    x_test.go:3: want 1, got 2', '--- FAIL: TestX (0.00s)', '=== RUN   TestY'];
    const lines = text.map((t, i) => ({ n: i + 1, text: t }));
    const block = (start: number, end: number): Block => ({ start, end, header: start, kind: 'assertion', score: 1, why: [], source: 'generic' });
    expect(withoutLeadingPassingContext([block(1, 4)], lines).map((b) => [b.start, b.end, b.header])).toEqual([[2, 4, 2]]);
    // A block that is nothing but such lines is not this rule's to drop.
    expect(withoutLeadingPassingContext([block(4, 4)], lines).map((b) => [b.start, b.end])).toEqual([[4, 4]]);
  });
});

describe('a rule drawn with box characters a Windows console garbled is a banner (src/evidence/select-blocks.ts)', () => {
  const merr = 'gha-small-vitest-shard-dom-dump-utf16';
  onMirror(merr)("vitest's `⎯⎯⎯ Failed Tests 2 ⎯⎯⎯` read as `ÔÄ»ÔÄ»ÔÄ» Failed Tests 2 ÔÄ»ÔÄ»ÔÄ»` does not open the block", async () => {
    const [[fail]] = quoteOf(merr) as [[number, number]];
    const lines = await evidenceOf(merr);
    expect(lines.filter((n) => n < fail)).toEqual([]);
  });
});
