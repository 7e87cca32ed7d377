/**
 * The `/redline` slash command in a PR conversation (issue 5): `/redline` and `/redline retry`
 * re-diagnose the PR's latest failed checks, `/redline explain` does the same and lists the leads where
 * the pin is uncertain, `/redline help` answers with the usage. Only people with write access (asked
 * of the API, not read from `author_association`), never bots, never Redline's own comments, never text
 * inside code blocks or quotes. The work (permission check, reaction, reply) is a queued task: src/tasks/run-command.ts.
 */
import type { Probot } from 'probot';
import type { IsOurs } from '../github/comments.js';
import type { JobQueue } from '../queue/queue.js';
import { type CommandName, REPLY_MARKER } from '../tasks/run-command.js';
import { commandJob, type Task } from '../tasks/task.js';
import { IssueCommentCreated, readPayload } from './payloads.js';

export { REPLY_MARKER, USAGE, canWrite } from '../tasks/run-command.js';

export type ParsedCommand = { name: CommandName } | { name: 'unknown'; word: string };

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

export interface DoorDeps {
  queue: JobQueue<Task>;
  /** Resolves to the predicate for Redline's own account (see app.ts). */
  isOurs: () => Promise<IsOurs>;
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
export function registerCommands(app: Probot, deps: DoorDeps): void {
  app.on('issue_comment.created', async (context) => {
    const payload = readPayload(context, IssueCommentCreated);
    if (!payload) return;
    const { comment, issue, repository, sender } = payload;
    // A command on a plain issue has nothing to diagnose; only PR conversations.
    if (!issue.pull_request) return;
    // Cheap checks first: most comments are not commands, and those cost no API call.
    if (sender?.type === 'Bot') return;
    const cmd = parseCommand(comment.body);
    if (!cmd || isBotOrOurs(comment.user, comment.body, () => false) || (await deps.isOurs())(comment.user)) return;
    const queued = await deps.queue.add(
      commandJob({
        kind: 'command',
        delivery: context.id,
        installationId: payload.installation.id,
        repo: repository.full_name,
        ref: { owner: repository.owner.login, repo: repository.name },
        repoUrl: repository.html_url,
        pr: issue.number,
        commentId: comment.id,
        login: comment.user?.login ?? sender.login,
        command: cmd,
      }),
    );
    if (!queued) context.log.info({ delivery: context.id }, 'redline: duplicate delivery ignored');
  });
}
