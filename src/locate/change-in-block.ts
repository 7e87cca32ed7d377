import { isChangedLine, type PrDiff } from '../repo/diff.js';
import { indentOf } from '../evidence/vocabulary.js';

/** How many lines below a block's head the change may be: a task, a transaction, a rule. */
const BLOCK_SPAN = 40;

/**
 * Tools that read a file as blocks report the block's head, not the line inside it that broke it: Ansible's
 * `conflicting action statements: copy, mode` at the task's `- name:` (line 9) for the `mode:` the PR added at
 * the task's indent (line 17); bean-check's `Transaction does not balance` at the transaction's date line (172)
 * for the posting the PR changed (174); sass-lint's `check validity of the block starting from line #1` for the `}`
 * the PR deleted inside it. When the reported line is one the PR left alone and heads a block (the
 * lines under it are indented deeper), the PR's change inside that block is the place: the changed line that
 * holds a word the report names, else the first changed line when the changes in the block are one run. A block
 * with changes in several places and none named is left alone: the report's own line is then the honest pin.
 */
export function changeInBlockBelow(
  diff: PrDiff | undefined,
  lines: readonly string[] | undefined,
  file: string,
  line: number,
  named: (text: string) => boolean,
): number | undefined {
  const hunks = diff?.byFile.get(file)?.hunks;
  const head = lines?.[line - 1];
  if (!hunks || !lines || head === undefined || !head.trim() || isChangedLine(diff, file, line)) return undefined;
  const base = indentOf(head);
  let end = line;
  for (let n = line + 1; n <= Math.min(lines.length, line + BLOCK_SPAN); n++) {
    const t = lines[n - 1]!;
    if (!t.trim()) continue;
    if (indentOf(t) <= base) break;
    end = n;
  }
  if (end === line) return undefined;
  // a hunk that only took lines out sits on the line before the gap (git diff -U0's `+18,0`): sass-lint's `block
  // starting from line #1` for the `}` the PR deleted after line 18
  const places = hunks.flatMap((h) => (h.added.length ? h.added.map((a) => a.n) : h.removed.length ? [h.start] : []));
  const inside = [...new Set(places.filter((n) => n > line && n <= end))].sort((a, b) => a - b);
  if (!inside.length) return undefined;
  const byName = inside.find((n) => named(lines[n - 1] ?? ''));
  if (byName !== undefined) return byName;
  return inside[inside.length - 1]! - inside[0]! === inside.length - 1 ? inside[0] : undefined;
}
