import type { LogLine } from '../types.js';
import { DIFF_NEW_FILE, DIFF_OLD_FILE } from './vocabulary.js';

/** A hunk's header with its counts: `@@ -64,7 +64,7 @@` (a count left out is 1). */
const HUNK_COUNTS = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;
/** git's and diff's note under a last line that had no newline: part of the hunk, counted by neither side. */
const NO_NEWLINE = /^\\ No newline/;

/**
 * The index of the last line of the unified diff that starts at line `at` (`--- old`, `+++ new`, then one
 * or more `@@ -a,b +c,d @@` hunks), or -1 when no diff starts there. A test runner that compares an output
 * with the expected file prints this diff under its message (Python-Markdown's `--- tests/x.html` /
 * `+++ actual_output.html`, and any `difflib.unified_diff` in a test). Its context lines begin with a space,
 * as any indented line does, so only the hunk's own counts say where it ends: each hunk is read for exactly
 * the lines its header counts, and a line that fits neither side ends the diff there.
 */
export function unifiedDiffEnd(lines: readonly LogLine[], at: number): number {
  if (!DIFF_OLD_FILE.test(lines[at]?.text ?? '') || !DIFF_NEW_FILE.test(lines[at + 1]?.text ?? '')) return -1;
  let end = -1;
  let j = at + 2;
  for (let hunk = HUNK_COUNTS.exec(lines[j]?.text ?? ''); hunk; hunk = HUNK_COUNTS.exec(lines[j]?.text ?? '')) {
    let oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
    let newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
    end = j;
    for (j++; j < lines.length && (oldLeft > 0 || newLeft > 0 || NO_NEWLINE.test(lines[j]!.text)); j++) {
      const t = lines[j]!.text;
      if (NO_NEWLINE.test(t)) {
        // counted by neither side
      } else if (t.startsWith('-') && oldLeft > 0) oldLeft--;
      else if (t.startsWith('+') && newLeft > 0) newLeft--;
      else if ((t.startsWith(' ') || t === '') && oldLeft > 0 && newLeft > 0) {
        oldLeft--;
        newLeft--;
      } else return end;
      end = j;
    }
  }
  return end;
}
