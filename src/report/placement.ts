import type { ChangedFile, PrDiff } from '../repo/diff.js';
import type { Diagnosis, Finding } from '../types.js';

/**
 * Where the one comment for a failure goes (DESIGN.md §5), decided from the PR's hunks before any API
 * call, because one bad anchor makes GitHub reject the whole review (422 "line must be part of the diff").
 */
export type Placement =
  /** Tier 1: a review comment on the line (the line is inside a hunk, new side). */
  | { tier: 'line'; file: string; line: number }
  /** Tier 2: a file-level review comment (the file changed, the line is outside its hunks). */
  | { tier: 'file'; file: string; line: number }
  /** Tier 3: a check-run annotation at file:line plus a PR comment with a permalink. */
  | { tier: 'annotation'; file: string; line: number }
  /** No pin at all: the PR comment (and check run) only. */
  | { tier: 'comment' };

export type Tier = Placement['tier'];

/** GitHub accepts a line comment on any new-side line shown in the patch: added or context, inside a hunk. */
export function isCommentableLine(file: ChangedFile | undefined, line: number): boolean {
  if (!file || !Number.isInteger(line) || line < 1) return false;
  return file.hunks.some((h) => line >= h.start && line <= h.end && (h.added.length > 0 || h.end > h.start));
}

/** The tier for a finding, given the PR's changes. */
export function placeFinding(f: Finding | undefined, diff: PrDiff | undefined): Placement {
  if (!f) return { tier: 'comment' };
  const changed = diff?.byFile.get(f.file);
  if (isCommentableLine(changed, f.line)) return { tier: 'line', file: f.file, line: f.line };
  if (changed) return { tier: 'file', file: f.file, line: f.line };
  return { tier: 'annotation', file: f.file, line: f.line };
}

/** The tier for a diagnosis: its top finding when it located one. */
export function place(d: Diagnosis, diff: PrDiff | undefined): Placement {
  return placeFinding(d.status === 'located' ? d.findings[0] : undefined, diff);
}

/** The next tier down, used when GitHub refuses an anchor anyway (422): line → file → annotation. */
export function fallback(p: Placement): Placement | undefined {
  if (p.tier === 'line') return { tier: 'file', file: p.file, line: p.line };
  if (p.tier === 'file') return { tier: 'annotation', file: p.file, line: p.line };
  return undefined;
}
