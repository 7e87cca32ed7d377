import { parseFingerprint, type Fingerprint } from '../report/fingerprint.js';
import { fallback, type Placement } from '../report/placement.js';
import { type GitHub, type RepoRef, listAll, statusOf } from './client.js';
import { redactingGitHub } from '../safety/redact-outgoing.js';

/** One comment Redline posted earlier on the PR (a review comment or a PR conversation comment). */
export interface OurComment {
  kind: 'review' | 'issue';
  id: number;
  body: string;
  fp: Fingerprint;
  path?: string;
  line?: number | null;
  subjectType?: string;
}

interface RawComment {
  id: number;
  body?: string | null;
  user?: { login?: string; type?: string } | null;
  path?: string;
  line?: number | null;
  subject_type?: string;
}

/** Who counts as us: a bot account, and when the App's login is known, exactly that one. */
export type IsOurs = (user: RawComment['user']) => boolean;
export const anyBot: IsOurs = (u) => u?.type === 'Bot';

/**
 * Redline's comments on the PR that carry a fingerprint: review comments and conversation comments.
 * Only a bot's comments count, so a person quoting a marker cannot make Redline edit (or skip) theirs.
 */
export async function findOurComments(gh: GitHub, ref: RepoRef, pr: number, isOurs: IsOurs = anyBot): Promise<OurComment[]> {
  const [review, issue] = await Promise.all([
    listAll<RawComment>(gh, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', { ...ref, pull_number: pr }),
    listAll<RawComment>(gh, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...ref, issue_number: pr }),
  ]);
  const out: OurComment[] = [];
  const take = (kind: OurComment['kind'], c: RawComment): void => {
    const fp = parseFingerprint(c.body);
    if (!fp || !isOurs(c.user)) return;
    out.push({ kind, id: c.id, body: c.body ?? '', fp, ...(c.path ? { path: c.path } : {}), line: c.line ?? null, ...(c.subject_type ? { subjectType: c.subject_type } : {}) });
  };
  review.forEach((c) => take('review', c));
  issue.forEach((c) => take('issue', c));
  return out;
}

/** Whether an existing comment already sits where `p` would put a new one (then it is edited in place). */
export function sitsAt(c: OurComment, p: Placement): boolean {
  if (p.tier === 'line') return c.kind === 'review' && c.path === p.file && c.line === p.line && c.subjectType !== 'file';
  if (p.tier === 'file') return c.kind === 'review' && c.path === p.file && c.subjectType === 'file';
  return c.kind === 'issue';
}

/** Replaces the body of one of our comments. */
export async function editComment(gh: GitHub, ref: RepoRef, c: Pick<OurComment, 'kind' | 'id'>, body: string): Promise<void> {
  gh = redactingGitHub(gh); // what leaves the process is redacted (src/safety/redact-outgoing.ts)
  if (c.kind === 'review') await gh.request('PATCH /repos/{owner}/{repo}/pulls/comments/{comment_id}', { ...ref, comment_id: c.id, body });
  else await gh.request('PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}', { ...ref, comment_id: c.id, body });
}

/** The comment actually posted, and at which tier (lower than asked when GitHub refused the anchor). */
export interface Posted {
  placement: Placement;
  kind: OurComment['kind'];
  id?: number;
}

/**
 * Posts `body` at placement `p`, falling back a tier when GitHub answers 422 for the anchor (the
 * hunks we validated against can be stale when the PR moved on). Tiers 'annotation' and 'comment'
 * both post a conversation comment; the annotation itself goes on the check run.
 */
export async function postComment(gh: GitHub, ref: RepoRef, pr: number, headSha: string, p: Placement, body: (p: Placement) => string): Promise<Posted> {
  gh = redactingGitHub(gh); // what leaves the process is redacted (src/safety/redact-outgoing.ts)
  try {
    if (p.tier === 'line') {
      const { data } = await gh.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews', {
        ...ref, pull_number: pr, commit_id: headSha, event: 'COMMENT',
        comments: [{ path: p.file, line: p.line, side: 'RIGHT', body: body(p) }],
      });
      return { placement: p, kind: 'review', id: (data as { id: number }).id };
    }
    if (p.tier === 'file') {
      const { data } = await gh.request('POST /repos/{owner}/{repo}/pulls/{pull_number}/comments', {
        ...ref, pull_number: pr, commit_id: headSha, path: p.file, subject_type: 'file', body: body(p),
      });
      return { placement: p, kind: 'review', id: (data as { id: number }).id };
    }
  } catch (e) {
    if (statusOf(e) !== 422) throw e;
    const next = fallback(p);
    if (!next) throw e;
    return postComment(gh, ref, pr, headSha, next, body);
  }
  const { data } = await gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...ref, issue_number: pr, body: body(p) });
  return { placement: p, kind: 'issue', id: (data as { id: number }).id };
}
