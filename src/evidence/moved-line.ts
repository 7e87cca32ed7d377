/**
 * A hunk whose first change inserts a line that it removes further down: a sorter's `--diff` (isort's
 * `+from .globals import app_ctx` under `_cv_request`, then `-from .globals import app_ctx` after `session`).
 * The line is moved: the file's own line is where it stands now, the removed one, counted on the old side (the
 * file as the checkout has it); the insertion is only where it belongs. A hunk that opens by removing, or that
 * removes nothing it inserted, is left at its first change.
 *
 * @param texts the hunk's lines from its first change on (` ctx`, `+new`, `-old`; a blank context line may arrive as '')
 * @param oldLine the old-side line number of the first change
 */
export function movedLine(texts: readonly string[], oldLine: number): number | undefined {
  if (!texts[0]?.startsWith('+')) return undefined;
  const inserted = new Set<string>();
  let old = oldLine;
  for (const text of texts) {
    if (!/^[ +-]|^$/.test(text) || /^(?:---|\+\+\+) /.test(text)) return undefined;
    const body = text.slice(1).trim();
    if (text.startsWith('+')) inserted.add(body);
    else if (text.startsWith('-') && body !== '' && inserted.has(body)) return old;
    else old++;
  }
  return undefined;
}
