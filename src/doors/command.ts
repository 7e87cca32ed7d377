/**
 * The `/redline` slash command in a PR conversation (issue 5): `/redline` and `/redline retry`
 * re-diagnose the PR's latest failed checks, `/redline explain` does the same and lists the leads where
 * the pin is uncertain, `/redline help` answers with the usage. Only people with write access (asked
 * of the API, not read from `author_association`), never bots, never Redline's own comments, never text
 * inside code blocks or quotes. The comment gets a reaction at once; the work goes through the queue.
 */
import type { Probot } from 'probot';
import type { GitHub, RepoRef } from '../github/client.js';
import { statusOf } from '../github/client.js';
import type { IsOurs } from '../github/comments.js';
import { failedChecksOf } from '../github/failed-checks.js';
import { handleFailedJob, type FailedJob, type JobDeps, type JobOutcome } from '../github/handle-failed-job.js';
import type { JobQueue } from '../queue/queue.js';
import { inlineCode } from '../report/sanitize.js';

export type CommandName = 'diagnose' | 'retry' | 'explain' | 'help';
export type ParsedCommand = { name: CommandName } | { name: 'unknown'; word: string };

/** Marks Redline's replies: a comment carrying it is ours and is never read as a command. */
export const REPLY_MARKER = '<!-- redline:reply -->';
/** Comment bodies read at most for a command (GitHub's own limit is 65,536). */
const MAX_BODY = 65_536;

const COMMAND = /^ {0,3}\/redline(?=$|[ \t])[ \t]*(\S*)/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The first `/redline` command of a comment: at the start of a line, outside fenced and indented code
 * blocks and `>` quotes (someone quoting or documenting the command is not running it).
 */
export function parseCommand(body: string | null | undefined): ParsedCommand | undefined {
  if (!body) return undefined;
  let fence: string | undefined;
  for (const line of body.slice(0, MAX_BODY).split(/\r?\n/)) {
    const f = FENCE.exec(line);
    if (fence) {
      // A fence closes with the same character, at least as long, and nothing after it.
      if (f && f[1]![0] === fence[0] && f[1]!.length >= fence.length && line.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1]!;
      continue;
    }
    if (/^(?: {4}|\t| {0,3}\t)/.test(line) || /^ {0,3}>/.test(line)) continue;
    const m = COMMAND.exec(line);
    if (!m) continue;
    const word = (m[1] ?? '').toLowerCase();
    if (word === '') return { name: 'diagnose' };
    if (word === 'retry' || word === 'explain' || word === 'help') return { name: word };
    return { name: 'unknown', word: m[1]!.slice(0, 40) };
  }
  return undefined;
}

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
  queue: JobQueue;
  cacheDir: string;
  logFetch?: JobDeps['logFetch'];
  /** Resolves to the predicate for Redline's own account (see app.ts). */
  isOurs: () => Promise<IsOurs>;
  /** Stores the job's artifacts (src/service), as for workflow_job. */
  artifacts?: JobDeps['artifacts'];
  /** Told each outcome (the status page's recent diagnoses: RedlineService.recordOutcome). */
  onOutcome?: (out: JobOutcome, job: { repo: string; installationId?: number | undefined; startedMs: number }) => void;
}

interface CommentUser {
  login?: string;
  type?: string;
}

/** A bot (by type or by the `[bot]` suffix every App account has), or Redline itself. */
export function isBotOrOurs(user: CommentUser | null | undefined, body: string | null | undefined, ours: IsOurs): boolean {
  if (!user || user.type === 'Bot' || (user.login ?? '').toLowerCase().endsWith('[bot]')) return true;
  if (ours(user)) return true;
  return !!body && (body.includes(REPLY_MARKER) || /<!-- redline:/.test(body));
}

/** Registers the `issue_comment.created` handler for `/redline` on PRs. */
export function registerCommands(app: Probot, deps: CommandDeps): void {
  app.on('issue_comment.created', async (context) => {
    const { comment, issue, repository, sender } = context.payload;
    // A command on a plain issue has nothing to diagnose; only PR conversations.
    if (!issue.pull_request) return;
    // Cheap checks first: most comments are not commands, and those cost no API call.
    if (sender?.type === 'Bot') return;
    const cmd = parseCommand(comment.body);
    if (!cmd || isBotOrOurs(comment.user, comment.body, () => false) || (await deps.isOurs())(comment.user)) return;
    const ref = { owner: repository.owner.login, repo: repository.name };
    const gh = context.octokit as GitHub;
    const login = comment.user?.login ?? sender.login;
    const say = async (text: string): Promise<void> => {
      await gh.request('POST /repos/{owner}/{repo}/issues/{issue_number}/comments', { ...ref, issue_number: issue.number, body: reply(text) });
    };
    const queued = deps.queue.add({
      id: context.id,
      // Its own key: the acknowledgement must not wait behind this PR's running diagnoses.
      key: `command:${context.id}`,
      run: async () => {
        if (!(await canWrite(gh, ref, login))) {
          await say(REFUSAL);
          context.log.info({ pr: issue.number, user: login }, 'redline: command refused (no write access)');
          return;
        }
        await gh.request('POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions', { ...ref, comment_id: comment.id, content: cmd.name === 'help' || cmd.name === 'unknown' ? '+1' : 'eyes' });
        if (cmd.name === 'help') return say(USAGE);
        if (cmd.name === 'unknown') return say(`Redline does not know the command ${inlineCode(`/redline ${cmd.word}`)}.\n\n${USAGE}`);
        const { data: pr } = await gh.request('GET /repos/{owner}/{repo}/pulls/{pull_number}', { ...ref, pull_number: issue.number });
        const p = pr as { state?: string; head: { sha: string } };
        if (p.state !== 'open') return say('This pull request is closed: Redline diagnoses open pull requests only.');
        const sha = p.head.sha;
        const isOurs = await deps.isOurs();
        const failed = await failedChecksOf(gh, ref, repository.html_url, sha, isOurs);
        if (!failed.length) return say(`No failed checks on the head commit ${inlineCode(sha.slice(0, 7))}: nothing to diagnose.`);
        for (const job of failed) enqueue(deps, context.id, repository.full_name, { ...job, ...(cmd.name === 'explain' ? { explain: true } : {}) }, gh, context.log, context.payload.installation?.id);
      },
    });
    if (!queued) context.log.info({ delivery: context.id }, 'redline: duplicate delivery ignored');
  });
}

/** Queues one failure's diagnosis behind the commit's other work (same key as the workflow_job trigger); false for a redelivery. */
export function enqueue(deps: CommandDeps, delivery: string, fullName: string, job: FailedJob, gh: GitHub, log: Probot['log'], installationId?: number): boolean {
  return deps.queue.add({
    id: `${delivery}/${job.jobName}/${job.jobId}`,
    key: `${fullName}@${job.headSha}`,
    run: async () => {
      const startedMs = performance.now();
      const out = await handleFailedJob(job, { gh, cacheDir: deps.cacheDir, isOurs: await deps.isOurs(), ...(deps.logFetch ? { logFetch: deps.logFetch } : {}), ...(deps.artifacts ? { artifacts: deps.artifacts } : {}) });
      deps.onOutcome?.(out, { repo: fullName, installationId, startedMs });
      log.info({ job: job.jobId, status: out.status, ...(out.status === 'published' ? { action: out.result.action, tier: out.result.placement.tier } : {}) }, 'redline: job done');
    },
  });
}
