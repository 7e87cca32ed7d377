import { parseUnifiedDiff, type PrDiff } from '../repo/diff.js';
import { type GitHub, type RepoRef, listAll } from './client.js';
import { MAX_OPEN_PR_PAGES } from './limits.js';

/** The PR a failed build belongs to: what publishing needs to know about it. */
export interface PullRequestRef {
  number: number;
  headSha: string;
  /** The repository the head branch lives in (differs from the base repo for forks). */
  headRepo?: string;
  /** The branch it merges into: Redline's config is read there (repo-config.ts), never from the head. */
  baseRef?: string;
}

interface PullLike {
  number: number;
  state?: string;
  head: { sha: string; repo?: { full_name?: string } | null };
  base?: { ref?: string; repo?: { full_name?: string } | null };
}

const toRef = (p: PullLike): PullRequestRef => ({
  number: p.number,
  headSha: p.head.sha,
  ...(p.head.repo?.full_name ? { headRepo: p.head.repo.full_name } : {}),
  ...(p.base?.ref ? { baseRef: p.base.ref } : {}),
});

/**
 * The open PR whose head is `sha`: from the payload's `pull_requests` when it has one (same-repo
 * PRs), else by SHA (the Checks API and workflow events leave `pull_requests` empty for fork PRs):
 * the commit's PRs first, then a bounded scan of open PRs. Undefined when no open PR has that head.
 */
export async function findPullRequest(gh: GitHub, ref: RepoRef, sha: string, fromPayload: readonly PullLike[] = []): Promise<PullRequestRef | undefined> {
  const direct = fromPayload.find((p) => p.head.sha === sha);
  if (direct) return toRef(direct);
  const base = `${ref.owner}/${ref.repo}`.toLowerCase();
  const isOpenHere = (p: PullLike): boolean =>
    p.head.sha === sha && (p.state === undefined || p.state === 'open') && (!p.base?.repo?.full_name || p.base.repo.full_name.toLowerCase() === base);
  const { data } = await gh.request('GET /repos/{owner}/{repo}/commits/{commit_sha}/pulls', { ...ref, commit_sha: sha, per_page: 100 });
  const byCommit = (data as PullLike[]).find(isOpenHere);
  if (byCommit) return toRef(byCommit);
  for (let page = 1; page <= MAX_OPEN_PR_PAGES; page++) {
    const { data: open } = await gh.request('GET /repos/{owner}/{repo}/pulls', { ...ref, state: 'open', per_page: 100, page });
    const hit = (open as PullLike[]).find(isOpenHere);
    if (hit) return toRef(hit);
    if ((open as PullLike[]).length < 100) break;
  }
  return undefined;
}

export interface PrFile {
  filename: string;
  status: string;
  previous_filename?: string;
  patch?: string;
}

/**
 * The PR's changed lines from the PR files API (no git history needed): each file's `patch` under
 * `--- a/x` / `+++ b/x` headers, parsed as one unified diff. Removed files have no new side; binary and
 * very large files come without a patch and are listed with no hunks (the file changed, no line known).
 */
export async function pullRequestDiff(gh: GitHub, ref: RepoRef, number: number): Promise<PrDiff> {
  return diffOfFiles(await listAll<PrFile>(gh, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/files', { ...ref, pull_number: number }));
}

/** Files as the PR files and compare APIs list them (each with its `patch`), as one parsed diff. */
export function diffOfFiles(files: readonly PrFile[]): PrDiff {
  const parts: string[] = [];
  for (const f of files) {
    if (f.status === 'removed') continue;
    const old = f.status === 'added' ? '/dev/null' : `a/${f.previous_filename ?? f.filename}`;
    parts.push(`--- ${old}\n+++ b/${f.filename}\n${f.patch ?? ''}`);
  }
  return parseUnifiedDiff(parts.join('\n'));
}
