import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cleanText } from '../../src/log/clean.js';
import { findGenericBlocks } from '../../src/evidence/index.js';
import { errorScore } from '../../src/evidence/vocabulary.js';

/** Test runners no matcher knows, recorded here on real code (fixtures/logs/<case>/record.sh). */
const linesOf = (c: string) => cleanText(readFileSync(new URL(`../../fixtures/logs/${c}/log.txt`, import.meta.url).pathname, 'utf8'));
const numberOf = (lines: ReturnType<typeof linesOf>, re: RegExp) => {
  const l = lines.find((x) => re.test(x.text));
  if (!l) throw new Error(`${re} not found`);
  return l.n;
};

describe('failure reports of test runners with no matcher', () => {
  it('quotes a report its runner closes by restating its opening, as one block (tcltest)', () => {
    const lines = linesOf('tcltest-word-next-start-regexp');
    const open = numberOf(lines, /^==== word-4\.2 start of the next word from a space FAILED$/);
    const close = numberOf(lines, /^==== word-4\.2 FAILED$/);
    const blocks = findGenericBlocks({ lines });
    // The test's body, its result and the expected value lie between, blank lines included.
    expect(blocks.some((b) => b.start <= open && b.end >= close)).toBe(true);
  });

  it('reads a comparison that names both values as a failed assertion (shunit2 `ASSERT:… expected:<> but was:<x>`)', () => {
    const lines = linesOf('shunit2-which-non-executable-match');
    const assert = numberOf(lines, /^ASSERT:a file that is not executable/);
    expect(errorScore(lines.find((l) => l.n === assert)!.text)).toBeGreaterThanOrEqual(0.5);
    expect(findGenericBlocks({ lines }).some((b) => b.start <= assert && b.end >= assert)).toBe(true);
  });

  it('does not take the next report with another name for a restatement', () => {
    const lines = cleanText('==== a-1.1 first FAILED\n---- Result was:\n1\n\n==== a-1.2 second FAILED\n---- Result was:\n2\n');
    const first = findGenericBlocks({ lines }).find((b) => b.start === 1);
    expect(first?.end).toBeLessThan(5);
  });
});
