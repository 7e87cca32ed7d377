/**
 * What the App's webhook handlers read from a payload, checked before they read it. A delivery with a
 * valid signature can still be malformed (a bug, a replay tool, a hand-edited redelivery): a missing
 * `repository`, a null owner, a `head_sha` that is no commit, a number for a comment body. Unchecked,
 * those were TypeErrors (a 500 to GitHub) or, worse, queued jobs that failed on every retry. Here each
 * handled event has a schema of exactly the fields its handler reads; a payload that does not fit is
 * ignored with one log line naming the fields (never their values: they may be huge or secret), and
 * nothing is queued. Owner, repository and commit are checked with `checkRef`, the check the job itself
 * runs, so nothing queued fails it later. Names (which a fork PR can set in its workflow file) are cut
 * to MAX_PAYLOAD_NAME_CHARS: they become job ids and fingerprint families. Unknown fields are dropped,
 * so only the fields below travel in a queued task.
 */
import type { Probot } from 'probot';
import { z } from 'zod';
import { BadRefError } from '../github/errors.js';
import { checkRef } from '../github/client.js';
import { MAX_CHECK_OUTPUT_CHARS, MAX_PAYLOAD_NAME_CHARS, MAX_PAYLOAD_PULLS, MAX_PAYLOAD_REF_CHARS, MAX_PAYLOAD_URL_CHARS } from '../limits.js';

const Id = z.int().positive();
/** Job, workflow, check and app names: cut, not refused (a long matrix job name is still a job). */
const Name = z.string().transform((s) => s.slice(0, MAX_PAYLOAD_NAME_CHARS));
/** Enum-like values GitHub sends (`Bot`, `failure`, `completed`, an app slug). */
const Word = z.string().max(100);
const Ref = z.string().max(MAX_PAYLOAD_REF_CHARS);
/** A page on the GitHub instance (http for GHES without TLS): the base of the comment's permalinks. */
const PageUrl = z
  .string()
  .max(MAX_PAYLOAD_URL_CHARS)
  .regex(/^https?:\/\/[^\s/?#]+(?:\/\S*)?$/, 'not an http(s) URL');
/** A GitHub login (`[bot]` for App accounts); GHES allows `.` and `_` too. */
const Login = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}(?:\[bot\])?$/, 'not a GitHub login');
const Installation = z.object({ id: Id });
const Sender = z.object({ login: Login.optional(), type: Word.optional() });
const Repository = z.object({
  name: z.string(),
  full_name: z.string().max(201),
  owner: z.object({ login: z.string() }),
  html_url: PageUrl,
  default_branch: Ref.optional(),
});
type Repo = z.output<typeof Repository>;

/** Owner, name and (when given) the commit, as checkRef will check them when the job runs. */
function refIssue(ctx: z.RefinementCtx, repository: Repo, sha?: { value: string; path: (string | number)[] }): void {
  try {
    checkRef({ owner: repository.owner.login, repo: repository.name }, sha?.value);
  } catch (e) {
    if (!(e instanceof BadRefError)) throw e;
    const path = e.kind === 'sha' ? sha!.path : e.kind === 'owner' ? ['repository', 'owner', 'login'] : ['repository', 'name'];
    ctx.addIssue({ code: 'custom', path, message: e.kind === 'sha' ? 'not a 40-hex commit SHA' : `not a valid GitHub ${e.kind} name` });
  }
}

export const WorkflowJobCompleted = z
  .object({
    action: z.literal('completed'),
    workflow_job: z.object({
      id: Id,
      name: Name,
      workflow_name: Name.nullish(),
      head_sha: z.string(),
      head_branch: Ref.nullish(),
      html_url: PageUrl.nullish(),
      conclusion: Word.nullable(),
      run_id: Id.optional(),
      run_attempt: Id.optional(),
    }),
    repository: Repository,
    installation: Installation,
    sender: Sender.nullish(),
  })
  .superRefine((p, ctx) => refIssue(ctx, p.repository, { value: p.workflow_job.head_sha, path: ['workflow_job', 'head_sha'] }));

const Pull = z.object({
  number: Id,
  state: Word.optional(),
  head: z.object({ sha: z.string().max(64), ref: Ref.optional(), repo: z.object({ full_name: z.string().max(201).optional() }).nullish() }),
  base: z.object({ ref: Ref.optional(), repo: z.object({ full_name: z.string().max(201).optional() }).nullish() }).optional(),
});
const OutputText = z
  .string()
  .transform((s) => s.slice(0, MAX_CHECK_OUTPUT_CHARS))
  .nullish();

export const CheckRunCompleted = z
  .object({
    action: z.literal('completed'),
    check_run: z.object({
      id: Id,
      name: Name,
      head_sha: z.string(),
      status: Word.optional(),
      conclusion: Word.nullish(),
      details_url: z.string().max(MAX_PAYLOAD_URL_CHARS).nullish(),
      html_url: PageUrl.nullish(),
      output: z.object({ title: OutputText, summary: OutputText, text: OutputText }).nullish(),
      app: z.object({ slug: Word.optional(), name: Name.optional() }).nullish(),
      pull_requests: z
        .array(Pull)
        .transform((a) => a.slice(0, MAX_PAYLOAD_PULLS))
        .optional(),
    }),
    repository: Repository,
    installation: Installation,
  })
  .superRefine((p, ctx) => refIssue(ctx, p.repository, { value: p.check_run.head_sha, path: ['check_run', 'head_sha'] }));

export const IssueCommentCreated = z
  .object({
    action: z.literal('created'),
    issue: z.object({ number: Id, pull_request: z.object({}).nullish() }),
    comment: z.object({ id: Id, body: z.string().nullable(), user: z.object({ login: Login, type: Word.optional() }).nullable() }),
    repository: Repository,
    installation: Installation,
    sender: z.object({ login: Login, type: Word.optional() }),
  })
  .superRefine((p, ctx) => refIssue(ctx, p.repository));

/** The deliveries a handler reads; anything else is answered 200 and logged (debug) by `logUnhandled`. */
export const HANDLED_EVENTS: ReadonlySet<string> = new Set(['workflow_job.completed', 'check_run.completed', 'issue_comment.created']);

/** One debug line for each delivery no handler reads (an unknown event or action): GitHub gets a 200, nothing is queued. */
export function logUnhandled(app: Pick<Probot, 'onAny' | 'log'>): void {
  app.onAny(async (event) => {
    const action = (event.payload as { action?: unknown }).action;
    const what = `${String(event.name).slice(0, 60)}${typeof action === 'string' ? `.${action.slice(0, 40)}` : ''}`;
    if (!HANDLED_EVENTS.has(what)) app.log.debug({ id: event.id }, `redline: ${what} delivery ignored: not an event Redline handles`);
  });
}

/** X-GitHub-Delivery: a GUID from GitHub; it becomes queue job ids and the dedupe key. */
const DELIVERY = /^[\x21-\x7e]{1,128}$/;

/** The payload problems as one line: at most three, by field path, without values. */
export function problemsOf(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 3).map((i) => `${i.path.length ? i.path.join('.') : '(payload)'}: ${i.message}`);
  const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
  return `${shown.join('; ')}${more}`.replace(/\s+/g, ' ').slice(0, 600);
}

interface DeliveryContext {
  id: string;
  name: string;
  payload: unknown;
  log: { warn(msg: string): void };
}

/** Parsed once per payload and schema: two handlers of one event (failure and pass) log a bad payload once. */
const seen = new WeakMap<object, Map<z.ZodType, unknown>>();

/**
 * The payload's fields as `schema` reads them, or undefined when the delivery does not fit: then one
 * line is logged ("redline: <event> delivery ignored, malformed payload: <fields>") and the handler
 * returns, so GitHub gets a 200 and nothing is queued.
 */
export function readPayload<S extends z.ZodType>(context: DeliveryContext, schema: S): z.output<S> | undefined {
  const payload = context.payload;
  const key = typeof payload === 'object' && payload !== null ? payload : undefined;
  const cached = key ? seen.get(key) : undefined;
  if (cached?.has(schema)) return cached.get(schema) as z.output<S> | undefined;
  let out: z.output<S> | undefined;
  const action = (payload as { action?: unknown } | null)?.action;
  const what = `${context.name}${typeof action === 'string' ? `.${action.slice(0, 40)}` : ''}`;
  if (!DELIVERY.test(context.id)) {
    context.log.warn(`redline: ${what} delivery ignored: X-GitHub-Delivery is not a delivery id (1 to 128 visible ASCII characters)`);
  } else {
    const r = schema.safeParse(payload);
    if (r.success) out = r.data;
    else context.log.warn(`redline: ${what} delivery ignored, malformed payload: ${problemsOf(r.error.issues)}`);
  }
  if (key) seen.set(key, (cached ?? new Map()).set(schema, out));
  return out;
}
