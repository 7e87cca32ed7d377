/**
 * Running a `/redline` command (parsed by the door, src/doors/command.ts): the permission check, the
 * reaction, the reply, and the PR's failed checks queued for diagnosis again.
 */
import type { GitHub, RepoRef } from '../github/client.js';
import { statusOf } from '../github/client.js';
import type { IsOurs } from '../github/comments.js';
import { failedChecksOf } from '../github/failed-checks.js';
import { inlineCode } from '../safety/sanitize.js';
import type { QueuedJob } from '../queue/queue.js';
import { diagnoseJob, type CommandTask, type Task } from './task.js';

export type CommandName = 'diagnose' | 'retry' | 'explain' | 'help';

/** Marks Redline's replies: a comment carrying it is ours and is never read as a command. */
export const REPLY_MARKER = '<!-- redline:reply -->';

/** The roles that may run commands: write access or more (a custom role based on write reports `write`). */
const WRITERS = new Set(['admin', 'maintain', 'write']);

/** Whether `login` has write access to the repository, asked of GitHub (404: not a collaborator). */
export async function canWrite(gh: GitHub, ref: RepoRef, login: string): Promise<boolean> {
  try {
    const { data } = await gh.request('GET /repos/{owner}/{repo}/collaborators/{username}/permission', { ...ref, username: login });
    const d = data as { permission?: string; role_name?: string };
    return WRITERS.has(d.permission ?? '') || WRITERS.has(d.role_name ?? '');
  } catch (e) {
    if (statusOf(e) === 404) return false;
    throw e;
  }
}

export const USAGE = [
  '**Redline commands** (people with write access to this repository; one per comment, at the start of a line):',
  '',
  '- `/redline` or `/redline retry`: diagnose the latest failed checks of this pull request again and update Redline\u2019s comments.',
  '- `/redline explain`: the same, and where Redline is not sure enough to pin a line, the comment lists the leads it weighed.',
  '- `/redline help`: this message.',
].join('\n');

const REFUSAL =
  'Thanks for the nudge! Redline commands can only be run by people with write access to this repository, so this one was not run. A maintainer can comment `/redline retry` to diagnose the failed checks again.';

/** A reply from Redline: marked as ours, no mentions (the text is ours, never the commenter's). */
const reply = (text: string): string => `${REPLY_MARKER}\n${text}\n`;

export interface CommandDeps {
  isOurs: IsOurs;
  enqueue: (job: QueuedJob<Task>) => Promise<boolean>;
  log: (fields: Record<string, unknown>, msg: string) => void;
}

/** Runs one command; the diagnoses it asks for go back to the queue behind the commit's other work. */
export async function runCommand(gh: GitHub, t: CommandTask, deps: CommandDeps): Promise<void> {
  const { ref, command: cmd } = t;
  const say = async (text: string): Promise<void> => {
    await gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...ref, issue_number: t.pr, body: reply(text) });
  };
  if (!(await canWrite(gh, ref, t.login))) {
    await say(REFUSAL);
    deps.log({ pr: t.pr, user: t.login }, 'redline: command refused (no write access)');
    return;
  }
  await gh.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', { ...ref, comment_id: t.commentId, content: cmd.name === 'help' || cmd.name === 'unknown' ? '+1' : 'eyes' });
  if (cmd.name === 'help') return say(USAGE);
  if (cmd.name === 'unknown') return say(`Redline does not know the command ${inlineCode(`/redline ${cmd.word}`)}.\n\n${USAGE}`);
  const { data: pr } = await gh.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...ref, pull_number: t.pr });
  const p = pr as { state?: string; head: { sha: string } };
  if (p.state !== 'open') return say('This pull request is closed: Redline diagnoses open pull requests only.');
  const sha = p.head.sha;
  const failed = await failedChecksOf(gh, ref, t.repoUrl, sha, deps.isOurs);
  if (!failed.length) return say(`No failed checks on the head commit ${inlineCode(sha.slice(0, 7))}: nothing to diagnose.`);
  for (const job of failed) {
    await deps.enqueue(diagnoseJob(t.delivery, { kind: 'diagnose', installationId: t.installationId, repo: t.repo, job: { ...job, ...(cmd.name === 'explain' ? { explain: true } : {}) } }));
  }
}
