import type { LogLine } from '../types.js';
import type { Block } from './block.js';
import { isEmptyLine } from './grow-block.js';

/**
 * Lines a test run prints while it is going well, which stand just above the first failure and so get read into
 * its block, where they became the quote's first line:
 * - go test's announcement of the test it starts (`=== RUN   TestMerge`, `=== PAUSE`, `=== CONT`): the failure is
 *   the `x_test.go:12:` lines under it and the `--- FAIL:` verdict;
 * - a progress row of a dot reporter, one character per test (Playwright's `··×··F··`, pytest's and RSpec's
 *   `..F..E..`, mocha's `․․․!`), printed as the tests ran: the failures are reported below it;
 * - vstest's `A total of 1 test files matched the specified pattern.`, printed before any test ran.
 */
const GO_TEST_ANNOUNCE = /^\s*=== (?:RUN|PAUSE|CONT|NAME)\s+\S/;
const VSTEST_MATCHED = /^\s*A total of \d+ test files? matched the specified pattern\.\s*$/;
/** A dot reporter's row: one long word of a few symbols repeated (letters only as one-letter verdicts). */
const MIN_PROGRESS_ROW = 20;
const MAX_PROGRESS_SYMBOLS = 6;

/** Whether a run of tests' progress row (see above): no spaces, long, a handful of distinct symbols, no words. */
function isProgressRow(text: string): boolean {
  const t = text.trim();
  if (t.length < MIN_PROGRESS_ROW || /\s/.test(t)) return false;
  // A verdict letter stands alone between symbols (`··F··`); two letters in a row are a word, not a row.
  if (/[A-Za-z0-9]{2}/.test(t)) return false;
  return new Set(t).size <= MAX_PROGRESS_SYMBOLS;
}

/** Whether a line is a passing run's context (see above). */
export const isPassingContext = (text: string): boolean =>
  text.length < 2000 && (GO_TEST_ANNOUNCE.test(text) || VSTEST_MATCHED.test(text) || isProgressRow(text));

/**
 * Blocks without the passing run's lines at their head: they are cut until the first line that is not one (a
 * block that is nothing else is left as it was: it is not this rule's to drop). The header moves down with the
 * block's start when it was one of them.
 */
export function withoutLeadingPassingContext(blocks: readonly Block[], lines: readonly LogLine[]): Block[] {
  const text = new Map(lines.map((l) => [l.n, l.text] as const));
  const context = (n: number) => isPassingContext(text.get(n) ?? '') || isEmptyLine(text.get(n) ?? '');
  return blocks.map((b) => {
    const own = b.lines ?? range(b.start, b.end);
    if (!isPassingContext(text.get(own[0]!) ?? '')) return b;
    const first = own.findIndex((n) => !context(n));
    if (first <= 0) return b;
    const kept = own.slice(first);
    const start = kept[0]!;
    const header = b.header >= start ? b.header : start;
    return { ...b, start, header, ...(b.lines ? { lines: kept } : {}), why: [...b.why, "a passing run's progress above the failure left out"] };
  });
}

function range(a: number, b: number): number[] {
  const out: number[] = [];
  for (let n = a; n <= b; n++) out.push(n);
  return out;
}
