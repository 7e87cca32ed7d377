/**
 * "The job passes later": when a job Redline commented on (same fingerprint family: repository +
 * workflow + job name) completes with `success` on a PR, Redline's comment for it is edited to say
 * it is fixed, at which commit. The fingerprint marker stays, so a later failure of the same job
 * finds and rewrites the same comment. An outdated review comment (its line left the diff) that
 * people replied to is left exactly as it is: the thread is theirs now.
 */
import { familyOf, fingerprintMarker, parseFingerprint } from '../report/fingerprint.js';
import { inlineCode, safeUrl } from '../safety/sanitize.js';
import { type GitHub, type RepoRef, checkRef, listAll } from './client.js';
import { anyBot, editComment, type IsOurs } from './comments.js';
import { findPullRequest } from './pull-request.js';
import { readRepoSettings } from './repo-config.js';

/** A job that passed, as the door read it from the webhook. */
export interface PassedJob {
  ref: RepoRef;
  /** https://<host>/<owner>/<repo>, for the commit link. */
  repoUrl: string;
  /** "<workflow> / <job>": the same family string the failure's fingerprint used. */
  jobName: string;
  headSha: string;
  pullRequests?: Parameters<typeof findPullRequest>[3];
  defaultBranch?: string;
}

export type FixedOutcome = { status: 'no-open-pr' } | { status: 'nothing-to-mark' } | { status: 'disabled' } | { status: 'marked'; comments: { kind: 'review' | 'issue'; id: number }[]; left: number };

/** The marker of a comment already marked fixed (with the commit), so a second pass edits nothing. */
const FIXED = /<!-- redline:fixed=([0-9a-f]{40}) -->/;
/** GitHub's limit on a comment body. */
const BODY_MAX = 65_536;

interface RawComment {
  id: number;
  body?: string | null;
  user?: { login?: string; type?: string } | null;
  line?: number | null;
  position?: number | null;
  subject_type?: string;
  in_reply_to_id?: number;
}

/** The fixed version of a comment body: a short line on top, the earlier diagnosis folded, the marker kept. */
export function fixedBody(old: string, o: { sha: string; jobName: string; repoUrl: string }): string {
  const fp = parseFingerprint(old);
  const marker = fp ? fingerprintMarker(fp) : '';
  const earlier = old.replace(/<!-- redline:fp=[0-9a-f.]+ -->\n?/g, '').replace(FIXED, '').trim();
  const url = safeUrl(`${o.repoUrl}/commit/${o.sha}`);
  const commit = url ? `[${inlineCode(o.sha.slice(0, 7))}](${url})` : inlineCode(o.sha.slice(0, 7));
  const head = `<!-- redline:fixed=${o.sha} -->\n**✅ Fixed in ${commit}**: ${inlineCode(o.jobName.slice(0, 200))} passed there.`;
  const tail = `\n\n${marker}\n`;
  const folded = `\n\n<details><summary>The earlier failure</summary>\n\n${earlier}\n\n</details>`;
  return head + (head.length + folded.length + tail.length <= BODY_MAX ? folded : '') + tail;
}

/** A review comment whose line is no longer in the diff (GitHub: `line` and `position` null); file comments never are. */
const isOutdated = (c: RawComment): boolean => c.subject_type !== 'file' && c.line == null && c.position == null;

/** Marks Redline's comments for this job on the commit's PR as fixed. */
export async function markFixed(gh: GitHub, job: PassedJob, deps: { isOurs?: IsOurs } = {}): Promise<FixedOutcome> {
  checkRef(job.ref, job.headSha);
  const isOurs = deps.isOurs ?? anyBot;
  const pr = await findPullRequest(gh, job.ref, job.headSha, job.pullRequests);
  if (!pr) return { status: 'no-open-pr' };
  const family = familyOf({ repo: `${job.ref.owner}/${job.ref.repo}`, job: job.jobName });
  const [review, issue] = await Promise.all([
    listAll<RawComment>(gh, 'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', { ...job.ref, pull_number: pr.number }),
    listAll<RawComment>(gh, 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...job.ref, issue_number: pr.number }),
  ]);
  const replied = new Set(review.map((c) => c.in_reply_to_id).filter((id): id is number => id !== undefined));
  const mine = (c: RawComment): boolean => isOurs(c.user) && parseFingerprint(c.body)?.family === family && !FIXED.test(c.body ?? '');
  const targets = [
    ...review.filter(mine).map((c) => ({ kind: 'review' as const, c })),
    ...issue.filter(mine).map((c) => ({ kind: 'issue' as const, c })),
  ];
  if (!targets.length) return { status: 'nothing-to-mark' };
  const keep = targets.filter((t) => t.kind === 'review' && isOutdated(t.c) && replied.has(t.c.id));
  const edit = targets.filter((t) => !keep.includes(t));
  if (!edit.length) return { status: 'marked', comments: [], left: keep.length };
  // Only now (something to edit) the config: `enabled: false` means Redline writes nothing, fixes included.
  const settings = await readRepoSettings(gh, job.ref, pr.baseRef ?? job.defaultBranch ?? '');
  if (!settings.config.enabled) return { status: 'disabled' };
  for (const t of edit) await editComment(gh, job.ref, { kind: t.kind, id: t.c.id }, fixedBody(t.c.body ?? '', { sha: job.headSha, jobName: job.jobName, repoUrl: job.repoUrl }));
  return { status: 'marked', comments: edit.map((t) => ({ kind: t.kind, id: t.c.id })), left: keep.length };
}
