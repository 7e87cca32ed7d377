/**
 * The anchors GitHub accepts for review comments, computed from a PR file's `patch` the way GitHub does:
 * a `line` on side RIGHT must be a context or `+` line of a hunk, on side LEFT a context or `-` line;
 * `start_line` must be in the same hunk and before `line`; `position` counts patch lines after the first
 * `@@` header (later headers count too).
 */

export type Side = 'LEFT' | 'RIGHT';

export interface DiffLine {
  /** 1-based position in the patch (GitHub's deprecated `position`). */
  position: number;
  hunk: number;
  kind: ' ' | '+' | '-' | '@';
  oldLine?: number;
  newLine?: number;
}

export interface FileDiff {
  lines: DiffLine[];
  /** The raw patch lines, index = position (0 is the first header). */
  raw: string[];
  additions: number;
  deletions: number;
}

const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** Parses a unified-diff `patch` (as in GET /pulls/{n}/files) into positioned lines. */
export function parsePatch(patch: string | undefined): FileDiff {
  const out: FileDiff = { lines: [], raw: [], additions: 0, deletions: 0 };
  if (!patch) return out;
  const raw = patch.split('\n');
  if (raw.at(-1) === '') raw.pop();
  out.raw = raw;
  let oldN = 0;
  let newN = 0;
  let hunk = -1;
  raw.forEach((text, i) => {
    const h = HEADER.exec(text);
    if (h) {
      hunk++;
      oldN = Number(h[1]);
      newN = Number(h[3]);
      if (i > 0) out.lines.push({ position: i, hunk, kind: '@' });
      return;
    }
    if (text.startsWith('\\')) return; // "\ No newline at end of file"
    const kind = (text[0] ?? ' ') as DiffLine['kind'];
    if (kind === '+') {
      out.lines.push({ position: i, hunk, kind, newLine: newN++ });
      out.additions++;
    } else if (kind === '-') {
      out.lines.push({ position: i, hunk, kind, oldLine: oldN++ });
      out.deletions++;
    } else {
      out.lines.push({ position: i, hunk, kind: ' ', oldLine: oldN++, newLine: newN++ });
    }
  });
  return out;
}

/** The diff line a comment on `line` of `side` anchors to, or undefined when it is not in a hunk. */
export function findLine(diff: FileDiff, line: number, side: Side): DiffLine | undefined {
  return diff.lines.find((l) =>
    side === 'RIGHT' ? l.kind !== '-' && l.newLine === line : l.kind !== '+' && l.oldLine === line,
  );
}

/** GitHub's `diff_hunk` for a comment: the hunk header through the commented line. */
export function diffHunkFor(diff: FileDiff, at: DiffLine): string {
  let start = at.position;
  while (start > 0 && !HEADER.test(diff.raw[start] ?? '')) start--;
  return diff.raw.slice(start, at.position + 1).join('\n');
}
