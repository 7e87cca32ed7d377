/**
 * The commits since the last green run of a job, as a diff prior (issue 15, part 5): GitHub's
 * `compare/{green}...{red}` gives the files changed in that range with their patches, the same shape as
 * a PR's files, so the same parser reads them. One request, asked with `per_page=1`: the files come on
 * the first page whatever the page size, and the commits (which we only count) stay one.
 */
import type { PrDiff } from '../repo/diff.js';
import type { BlamedRange } from '../types.js';
import { diffOfFiles, type PrFile } from './pull-request.js';
import { COMPARE_MAX_FILES } from './limits.js';

/** The part of GitHub's compare answer read here. */
export interface CompareAnswer {
  html_url?: string;
  status?: string;
  total_commits: number;
  files?: (PrFile & { changes?: number })[];
}

export interface ComparePrior {
  diff: PrDiff;
  range: Omit<BlamedRange, 'why'>;
}

/** The route and parameters of the one compare request (its budget is the caller's). */
export function compareRequest(base: string, head: string): { route: string; params: Record<string, unknown> } {
  return { route: 'GET /repos/{owner}/{repo}/compare/{basehead}', params: { basehead: `${base}...${head}`, per_page: 1 } };
}

/**
 * The diff prior from a compare answer, with what GitHub left out said in words: more than
 * COMPARE_MAX_FILES files (the list stops there), and files whose patch is too large to be shown
 * (listed, changed, with no line known). Undefined when the range changes nothing (`identical`, `behind`).
 */
export function priorFromCompare(base: string, head: string, a: CompareAnswer): ComparePrior | undefined {
  const files = a.files ?? [];
  if (!files.length || a.status === 'identical' || a.status === 'behind') return undefined;
  const cut: string[] = [];
  if (files.length >= COMPARE_MAX_FILES) cut.push(`GitHub lists only the first ${COMPARE_MAX_FILES} changed files of the range`);
  // A removed or binary file has no patch by nature; a changed text file without one was too large.
  const noPatch = files.filter((f) => !f.patch && f.status !== 'removed' && (f.changes ?? 1) > 0).length;
  if (noPatch) cut.push(`${noPatch} file${noPatch === 1 ? '' : 's'} without a patch (too large or binary: changed, no line known)`);
  return {
    diff: { ...diffOfFiles(files), changedBy: 'the commits since the last green run' },
    range: { base, head, commits: a.total_commits, files: files.length, ...(a.html_url ? { url: a.html_url } : {}), ...(cut.length ? { truncated: cut.join('; ') } : {}) },
  };
}
