import { diffHunkFor, findLine, parsePatch, type Side } from './diff-hunks.js';
import {
  renderAnnotation,
  renderChangedFile,
  renderCommit,
  renderCheckRun,
  renderInstallation,
  renderIssueComment,
  renderJob,
  renderPull,
  renderPullFile,
  renderReaction,
  renderRepo,
  renderReview,
  renderReviewComment,
  renderUser,
  authorAssociation,
  defaultPermissions,
  blobSha,
  type Urls,
} from './render.js';
import {
  now,
  nextId,
  type FakeAnnotation,
  type FakeCheckRun,
  type FakeJob,
  type FakeIssueComment,
  type FakePull,
  type FakeReaction,
  type FakeRepo,
  type FakeReviewComment,
  type FakeState,
} from './state.js';

/**
 * The REST endpoints the fake answers, with GitHub's rules beyond the schema (diff anchors, size limits,
 * annotation batches). Each route names GitHub's path template so the request is validated against that
 * operation before the handler runs.
 */

export type ViolationKind = 'route' | 'schema' | 'json' | 'rule' | 'auth' | 'blob-auth';

export interface Reply {
  status: number;
  body?: unknown;
  /** Sent as is instead of JSON. */
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** Set when the client broke a GitHub rule: the server records it in `violations`. */
  violation?: { kind: ViolationKind; message: string };
}

export interface Ctx {
  state: FakeState;
  urls: Urls;
  params: Record<string, string>;
  query: URLSearchParams;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- validated JSON
  /** The login the request acts as (from its token); undefined when anonymous or an App JWT. */
  actor?: string;
  /** The App JWT's `iss`, when authenticated as the App. */
  appJwt?: boolean;
  /** Installation of the token, when it is an installation token. */
  installationId?: number;
  /** Signed URL on the blob host (see index.ts). */
  signBlob(kind: 'log' | 'tarball', key: string): string;
  /** Issues an installation token. */
  issueToken(installationId: number): { token: string; expires_at: string };
}

export interface Route {
  method: string;
  /** GitHub's path template, as in the OpenAPI description. */
  template: string;
  /** Path params that may contain `/` (contents path, tarball ref). */
  greedy?: string[];
  /** Needs an App JWT instead of a token. */
  appAuth?: boolean;
  handler(ctx: Ctx): Reply;
}

const DOCS = 'https://docs.github.com/rest';
export const BODY_MAX = 65536;
export const CHECK_TEXT_MAX = 65535;
export const ANNOTATIONS_PER_REQUEST = 50;

export const notFound = (doc = DOCS): Reply => ({
  status: 404,
  body: { message: 'Not Found', documentation_url: doc, status: '404' },
});

/** 422 "Validation Failed" with GitHub's error objects; recorded as a violation. */
export const validationFailed = (
  errors: Array<{ resource: string; field: string; code: string; message?: string }>,
  doc = DOCS,
): Reply => ({
  status: 422,
  body: { message: 'Validation Failed', errors, documentation_url: doc, status: '422' },
  violation: { kind: 'rule', message: errors.map((e) => e.message ?? `${e.resource}.${e.field} ${e.code}`).join('; ') },
});

/** 422 "Unprocessable Entity" with string errors (the reviews API answers like this). */
export const unprocessable = (errors: string[], doc = DOCS): Reply => ({
  status: 422,
  body: { message: 'Unprocessable Entity', errors, documentation_url: doc, status: '422' },
  violation: { kind: 'rule', message: errors.join('; ') },
});

const unauthorized = (message: string): Reply => ({
  status: 401,
  body: { message, documentation_url: DOCS, status: '401' },
  violation: { kind: 'auth', message },
});

function repoOf(ctx: Ctx): FakeRepo | undefined {
  const repo = ctx.state.repos[`${ctx.params.owner}/${ctx.params.repo}`];
  if (!repo) return undefined;
  // An installation token only sees the repositories of its installation (others look absent).
  if (ctx.installationId !== undefined) {
    const inst = ctx.state.installations[ctx.installationId];
    if (!inst?.repos.includes(`${repo.owner}/${repo.name}`)) return undefined;
  }
  return repo;
}

function int(ctx: Ctx, name: string): number {
  return Number(ctx.params[name]);
}

/** GitHub's page/per_page pagination with a Link header (absolute URLs on the request's API root). */
function paginate<T>(ctx: Ctx, path: string, items: T[], wrap?: (page: T[], total: number) => unknown): Reply {
  const perPage = Math.min(Math.max(Number(ctx.query.get('per_page') ?? 30) || 30, 1), 100);
  const page = Math.max(Number(ctx.query.get('page') ?? 1) || 1, 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const slice = items.slice((page - 1) * perPage, page * perPage);
  const link = (p: number, rel: string) => {
    const q = new URLSearchParams(ctx.query);
    q.set('per_page', String(perPage));
    q.set('page', String(p));
    return `<${ctx.urls.api}${path}?${q}>; rel="${rel}"`;
  };
  const links: string[] = [];
  if (page > 1) links.push(link(page - 1, 'prev'));
  if (page < last) links.push(link(page + 1, 'next'), link(last, 'last'));
  if (page > 1) links.push(link(1, 'first'));
  return {
    status: 200,
    body: wrap ? wrap(slice, items.length) : slice,
    headers: links.length ? { link: links.join(', ') } : {},
  };
}

function requireActor(ctx: Ctx): string | Reply {
  return ctx.actor ?? unauthorized('Requires authentication');
}

function bodyTooLong(resource: string, body: unknown): Reply | undefined {
  if (typeof body === 'string' && body.length > BODY_MAX) {
    return validationFailed([
      { resource, code: 'custom', field: 'body', message: `body is too long (maximum is ${BODY_MAX} characters)` },
    ]);
  }
  return undefined;
}

function isReply(x: unknown): x is Reply {
  return typeof x === 'object' && x !== null && 'status' in x;
}

// ------------------------------------------------------------------------------------------------------
// Review comment anchors

interface AnchorInput {
  path: string;
  line?: number;
  side?: string;
  start_line?: number;
  start_side?: string;
  position?: number;
  subject_type?: string;
}

type Anchor = Pick<FakeReviewComment, 'path' | 'line' | 'side' | 'start_line' | 'start_side' | 'position' | 'diff_hunk' | 'subject_type'>;

/** Resolves an anchor against the PR's diff, or returns GitHub's error message for it. */
function resolveAnchor(pr: FakePull, c: AnchorInput): Anchor | { error: string; field: string } {
  const file = pr.files.find((f) => f.filename === c.path);
  if (!file) return { error: 'Path could not be resolved', field: 'path' };
  const diff = parsePatch(file.patch);
  if (c.subject_type === 'file') {
    return { path: c.path, line: null, side: null, start_line: null, start_side: null, position: null, diff_hunk: diff.raw.slice(0, 1).join('\n'), subject_type: 'file' };
  }
  if (c.line === undefined) {
    if (c.position === undefined) return { error: 'line is required', field: 'line' };
    const at = diff.lines.find((l) => l.position === c.position && l.kind !== '@');
    if (!at) return { error: 'Position could not be resolved', field: 'position' };
    const side: Side = at.kind === '-' ? 'LEFT' : 'RIGHT';
    return { path: c.path, line: (side === 'LEFT' ? at.oldLine : at.newLine) ?? null, side, start_line: null, start_side: null, position: at.position, diff_hunk: diffHunkFor(diff, at), subject_type: 'line' };
  }
  const side = (c.side ?? 'RIGHT') as Side;
  if (side !== 'LEFT' && side !== 'RIGHT') return { error: 'side must be LEFT or RIGHT', field: 'side' };
  const at = findLine(diff, c.line, side);
  if (!at) return { error: 'line must be part of the diff', field: 'line' };
  let startLine: number | null = null;
  let startSide: Side | null = null;
  if (c.start_line !== undefined) {
    startSide = (c.start_side ?? side) as Side;
    if (c.start_line >= c.line && startSide === side) return { error: 'start_line must precede the end line', field: 'start_line' };
    const start = findLine(diff, c.start_line, startSide);
    if (!start) return { error: 'start_line must be part of the diff', field: 'start_line' };
    if (start.hunk !== at.hunk) return { error: 'start_line must be part of the same hunk as the line', field: 'start_line' };
    startLine = c.start_line;
  }
  return { path: c.path, line: c.line, side, start_line: startLine, start_side: startSide, position: at.position, diff_hunk: diffHunkFor(diff, at), subject_type: 'line' };
}

function commitOk(pr: FakePull, sha: string | undefined): boolean {
  return sha === undefined || sha === pr.head.sha || pr.commits.includes(sha);
}

// ------------------------------------------------------------------------------------------------------
// Check runs

function checkOutputRules(body: any): Reply | undefined {
  const out = body.output;
  if (!out) return undefined;
  for (const field of ['summary', 'text'] as const) {
    const v = out[field];
    if (typeof v === 'string' && v.length > CHECK_TEXT_MAX) {
      return {
        status: 422,
        body: { message: `Invalid request.\n\nOnly ${CHECK_TEXT_MAX} characters are allowed; ${v.length} were supplied.`, documentation_url: `${DOCS}/checks/runs`, status: '422' },
        violation: { kind: 'rule', message: `output.${field} is ${v.length} characters (max ${CHECK_TEXT_MAX})` },
      };
    }
  }
  const anns: FakeAnnotation[] = out.annotations ?? [];
  if (anns.length > ANNOTATIONS_PER_REQUEST) {
    return validationFailed([{ resource: 'CheckRun', code: 'custom', field: 'output.annotations', message: `Only ${ANNOTATIONS_PER_REQUEST} annotations are allowed per request; ${anns.length} were supplied` }]);
  }
  for (const a of anns) {
    if (a.end_line < a.start_line) {
      return validationFailed([{ resource: 'CheckRun', code: 'invalid', field: 'output.annotations.end_line', message: 'end_line must be greater than or equal to start_line' }]);
    }
    if ((a.start_column !== undefined || a.end_column !== undefined) && a.start_line !== a.end_line) {
      return validationFailed([{ resource: 'CheckRun', code: 'invalid', field: 'output.annotations.start_column', message: 'start_column and end_column may only be given when start_line equals end_line' }]);
    }
  }
  if (body.status === 'completed' && !body.conclusion) {
    return validationFailed([{ resource: 'CheckRun', code: 'missing_field', field: 'conclusion', message: 'conclusion is required when status is completed' }]);
  }
  return undefined;
}

function applyCheckBody(run: FakeCheckRun, body: any): void {
  for (const k of ['name', 'details_url', 'external_id', 'started_at', 'completed_at'] as const) {
    if (body[k] !== undefined) (run as any)[k] = body[k];
  }
  if (body.status !== undefined) run.status = body.status;
  if (body.conclusion !== undefined) {
    run.conclusion = body.conclusion;
    run.status = 'completed'; // GitHub: a conclusion completes the run
    run.completed_at ??= now();
  }
  if (body.output) {
    for (const k of ['title', 'summary', 'text'] as const) if (body.output[k] !== undefined) run.output[k] = body.output[k];
    for (const a of body.output.annotations ?? []) run.annotations.push({ ...a }); // appended, as GitHub does
  }
}

// ------------------------------------------------------------------------------------------------------
// Routes

function reactionRoutes(kind: 'issues' | 'pulls'): Route[] {
  const find = (ctx: Ctx) => {
    const repo = repoOf(ctx);
    const list = kind === 'issues' ? repo?.issueComments : repo?.reviewComments;
    return { repo, comment: list?.find((c) => c.id === int(ctx, 'comment_id')) };
  };
  return [
    {
      method: 'GET',
      template: `/repos/{owner}/{repo}/${kind}/comments/{comment_id}/reactions`,
      handler: (ctx) => {
        const { comment } = find(ctx);
        if (!comment) return notFound();
        const content = ctx.query.get('content');
        const list = comment.reactions.filter((r) => !content || r.content === content);
        return paginate(ctx, `/repos/${ctx.params.owner}/${ctx.params.repo}/${kind}/comments/${comment.id}/reactions`, list.map((r) => renderReaction(ctx.state, ctx.urls, r)));
      },
    },
    {
      method: 'POST',
      template: `/repos/{owner}/{repo}/${kind}/comments/{comment_id}/reactions`,
      handler: (ctx) => {
        const actor = requireActor(ctx);
        if (isReply(actor)) return actor;
        const { comment } = find(ctx);
        if (!comment) return notFound();
        const existing = comment.reactions.find((r) => r.user === actor && r.content === ctx.body.content);
        if (existing) return { status: 200, body: renderReaction(ctx.state, ctx.urls, existing) };
        const r: FakeReaction = { id: nextId(ctx.state), user: actor, content: ctx.body.content, created_at: now() };
        comment.reactions.push(r);
        return { status: 201, body: renderReaction(ctx.state, ctx.urls, r) };
      },
    },
  ];
}

/** PATCH and DELETE of one comment: issue comments and review comments follow the same rules. */
function commentEditRoutes(kind: 'issues' | 'pulls', resource: 'IssueComment' | 'PullRequestReviewComment'): Route[] {
  const template = `/repos/{owner}/{repo}/${kind}/comments/{comment_id}`;
  const list = (repo: FakeRepo) => (kind === 'issues' ? repo.issueComments : repo.reviewComments) as (FakeIssueComment | FakeReviewComment)[];
  const render = (ctx: Parameters<Route['handler']>[0], repo: FakeRepo, c: FakeIssueComment | FakeReviewComment) =>
    kind === 'issues' ? renderIssueComment(ctx.state, ctx.urls, repo, c as FakeIssueComment) : renderReviewComment(ctx.state, ctx.urls, repo, c as FakeReviewComment);
  return [
    {
      method: 'PATCH',
      template,
      handler: (ctx) => {
        const actor = requireActor(ctx);
        if (isReply(actor)) return actor;
        const repo = repoOf(ctx);
        const c = repo ? list(repo).find((x) => x.id === int(ctx, 'comment_id')) : undefined;
        if (!repo || !c) return notFound();
        const tooLong = bodyTooLong(resource, ctx.body.body);
        if (tooLong) return tooLong;
        c.body = ctx.body.body;
        c.updated_at = now();
        return { status: 200, body: render(ctx, repo, c) };
      },
    },
    {
      method: 'DELETE',
      template,
      handler: (ctx) => {
        const actor = requireActor(ctx);
        if (isReply(actor)) return actor;
        const repo = repoOf(ctx);
        const i = repo ? list(repo).findIndex((x) => x.id === int(ctx, 'comment_id')) : -1;
        if (!repo || i < 0) return notFound();
        list(repo).splice(i, 1);
        return { status: 204, raw: '' };
      },
    },
  ];
}

/** The runs drawn from the repo's jobs (one per run_id, its latest attempt deciding status and conclusion), newest first. */
function runsOf(ctx: Ctx, repo: FakeRepo) {
  const full = `${repo.owner}/${repo.name}`;
  const byRun = new Map<number, FakeJob[]>();
  for (const j of Object.values(repo.jobs)) byRun.set(j.run_id, [...(byRun.get(j.run_id) ?? []), j]);
  const runs = [...byRun].map(([id, jobs]) => {
    const attempt = Math.max(...jobs.map((j) => j.run_attempt));
    const latest = jobs.filter((j) => j.run_attempt === attempt);
    const done = latest.every((j) => j.status === 'completed');
    const conclusion = !done ? null : latest.some((j) => j.conclusion === 'failure') ? 'failure' : latest.some((j) => j.conclusion === 'cancelled') ? 'cancelled' : 'success';
    const j0 = latest[0]!;
    const path = j0.workflow_path ?? '.github/workflows/ci.yml';
    return {
      id, name: j0.workflow_name, node_id: `WFR_${id}`, head_branch: j0.head_branch, head_sha: j0.head_sha, path, run_number: id, run_attempt: attempt,
      event: j0.event ?? 'pull_request', status: done ? 'completed' : 'in_progress', conclusion, workflow_id: j0.workflow_id ?? 1,
      url: `${ctx.urls.api}/repos/${full}/actions/runs/${id}`, html_url: `${ctx.urls.html}/${full}/actions/runs/${id}`,
      jobs_url: `${ctx.urls.api}/repos/${full}/actions/runs/${id}/jobs`, logs_url: `${ctx.urls.api}/repos/${full}/actions/runs/${id}/logs`,
      check_suite_url: `${ctx.urls.api}/repos/${full}/check-suites/${id}`, artifacts_url: `${ctx.urls.api}/repos/${full}/actions/runs/${id}/artifacts`,
      cancel_url: `${ctx.urls.api}/repos/${full}/actions/runs/${id}/cancel`, rerun_url: `${ctx.urls.api}/repos/${full}/actions/runs/${id}/rerun`,
      workflow_url: `${ctx.urls.api}/repos/${full}/actions/workflows/${j0.workflow_id ?? 1}`,
      head_commit: null, repository: { id: repo.id, node_id: `R_${repo.id}`, name: repo.name, full_name: full }, head_repository: { id: repo.id, node_id: `R_${repo.id}`, name: repo.name, full_name: full },
      created_at: j0.started_at, updated_at: j0.completed_at ?? j0.started_at, run_started_at: j0.started_at, pull_requests: [],
    };
  });
  return runs.sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
}

/** GET …/runs with GitHub's filters: status (a status or a conclusion), branch, head_sha, event, created (`>=date`). */
function listRuns(ctx: Ctx, workflow?: string): Reply {
  const repo = repoOf(ctx);
  if (!repo) return notFound();
  const q = (k: string) => ctx.query.get(k) ?? undefined;
  const status = q('status');
  const created = q('created');
  const since = created?.startsWith('>=') ? created.slice(2) : undefined;
  const runs = runsOf(ctx, repo).filter((r) =>
    (!workflow || String(r.workflow_id) === workflow || r.path.split('/').pop() === workflow) &&
    (!status || r.status === status || r.conclusion === status) &&
    (!q('branch') || r.head_branch === q('branch')) &&
    (!q('head_sha') || r.head_sha === q('head_sha')) &&
    (!q('event') || r.event === q('event')) &&
    (!since || r.created_at >= since));
  const path = workflow ? `/repos/${repo.owner}/${repo.name}/actions/workflows/${workflow}/runs` : `/repos/${repo.owner}/${repo.name}/actions/runs`;
  return paginate(ctx, path, runs, (page, total) => ({ total_count: total, workflow_runs: page }));
}

export const routes: Route[] = [
  // --- App / installations --------------------------------------------------------------------------
  {
    method: 'GET',
    template: '/app',
    appAuth: true,
    handler: (ctx) => {
      const a = ctx.state.app;
      return { status: 200, body: { id: a.id, slug: a.slug, node_id: `A_${a.id}`, name: a.name, owner: renderUser(ctx.state, ctx.urls, a.owner), html_url: `${ctx.urls.html}/apps/${a.slug}`, permissions: defaultPermissions(), events: [], installations_count: Object.keys(ctx.state.installations).length } };
    },
  },
  {
    method: 'GET',
    template: '/app/installations',
    appAuth: true,
    handler: (ctx) =>
      paginate(ctx, '/app/installations', Object.values(ctx.state.installations).map((i) => renderInstallation(ctx.state, ctx.urls, i))),
  },
  {
    method: 'POST',
    template: '/app/installations/{installation_id}/access_tokens',
    appAuth: true,
    handler: (ctx) => {
      const inst = ctx.state.installations[int(ctx, 'installation_id')];
      if (!inst) return notFound();
      const { token, expires_at } = ctx.issueToken(inst.id);
      return { status: 201, body: { token, expires_at, permissions: ctx.body?.permissions ?? inst.permissions ?? defaultPermissions(), repository_selection: 'selected' } };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/installation',
    appAuth: true,
    handler: (ctx) => {
      const full = `${ctx.params.owner}/${ctx.params.repo}`;
      const inst = Object.values(ctx.state.installations).find((i) => i.repos.includes(full));
      return inst ? { status: 200, body: renderInstallation(ctx.state, ctx.urls, inst) } : notFound();
    },
  },
  // --- Repos, contents, tarballs, permissions --------------------------------------------------------
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      return repo ? { status: 200, body: renderRepo(ctx.state, ctx.urls, repo) } : notFound();
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/contents/{path}',
    greedy: ['path'],
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const path = (ctx.params.path ?? '').replace(/^\/+|\/+$/g, '');
      const text = repo?.contents[path];
      if (!repo || text === undefined) return notFound(`${DOCS}/repos/contents#get-repository-content`);
      const full = `${repo.owner}/${repo.name}`;
      const ref = ctx.query.get('ref') ?? repo.default_branch;
      const sha = blobSha(`blob:${text}`);
      const self = `${ctx.urls.api}/repos/${full}/contents/${path}?ref=${encodeURIComponent(ref)}`;
      const html = `${ctx.urls.html}/${full}/blob/${ref}/${path}`;
      const git = `${ctx.urls.api}/repos/${full}/git/blobs/${sha}`;
      const b64 = Buffer.from(text, 'utf8').toString('base64').replace(/.{60}/g, '$&\n');
      return {
        status: 200,
        body: {
          type: 'file', encoding: 'base64', size: Buffer.byteLength(text), name: path.split('/').pop(), path,
          content: b64.endsWith('\n') ? b64 : `${b64}\n`, sha, url: self, git_url: git, html_url: html,
          download_url: `https://raw.githubusercontent.com/${full}/${ref}/${path}`,
          _links: { self, git, html },
        },
      };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/tarball/{ref}',
    greedy: ['ref'],
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const ref = ctx.params.ref ?? '';
      if (!repo || !repo.tarballs[ref]) return notFound(`${DOCS}/repos/contents#download-a-repository-archive-tar`);
      return { status: 302, headers: { location: ctx.signBlob('tarball', `${repo.owner}/${repo.name}/${ref}`) }, raw: '' };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/collaborators/{username}/permission',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      if (!repo) return notFound();
      const login = ctx.params.username ?? '';
      const role = repo.permissions[login] ?? (login === repo.owner ? 'admin' : repo.private ? 'none' : 'read');
      // GitHub maps the fine roles onto the legacy `permission` and gives the role in `role_name`.
      const permission = role === 'maintain' ? 'write' : role === 'triage' ? 'read' : role;
      const user = renderUser(ctx.state, ctx.urls, login);
      const perms = { admin: role === 'admin', maintain: ['admin', 'maintain'].includes(role), push: ['admin', 'maintain', 'write'].includes(role), triage: role !== 'read' && role !== 'none', pull: role !== 'none' };
      return { status: 200, body: { permission, role_name: role, user: { ...user, permissions: perms, role_name: role } } };
    },
  },
  // --- Actions ---------------------------------------------------------------------------------------
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/actions/jobs/{job_id}',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const job = repo?.jobs[int(ctx, 'job_id')];
      return repo && job ? { status: 200, body: renderJob(ctx.urls, repo, job) } : notFound();
    },
  },
  {
    // Workflow runs are not seeded on their own: each run is drawn from its jobs (same run_id).
    method: 'GET',
    template: '/repos/{owner}/{repo}/actions/runs',
    handler: (ctx) => listRuns(ctx),
  },
  {
    // The runs of one workflow (by id or by file name, as GitHub accepts both), with the list's filters.
    method: 'GET',
    template: '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs',
    handler: (ctx) => listRuns(ctx, ctx.params.workflow_id),
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/actions/runs/{run_id}',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const run = repo ? runsOf(ctx, repo).find((r) => r.id === int(ctx, 'run_id')) : undefined;
      return run ? { status: 200, body: run } : notFound();
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/actions/runs/{run_id}/jobs',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      if (!repo) return notFound();
      const runId = int(ctx, 'run_id');
      const jobs = Object.values(repo.jobs).filter((j) => j.run_id === runId);
      if (!jobs.length) return notFound();
      // filter=latest (default): only the latest attempt's jobs.
      const latest = Math.max(...jobs.map((j) => j.run_attempt));
      const list = ctx.query.get('filter') === 'all' ? jobs : jobs.filter((j) => j.run_attempt === latest);
      return paginate(ctx, `/repos/${repo.owner}/${repo.name}/actions/runs/${runId}/jobs`, list.map((j) => renderJob(ctx.urls, repo, j)), (jobsPage, total) => ({ total_count: total, jobs: jobsPage }));
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/actions/jobs/{job_id}/logs',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const id = int(ctx, 'job_id');
      const log = repo?.logs[id];
      if (!repo || !log) return notFound(`${DOCS}/actions/workflow-jobs#download-job-logs-for-a-workflow-run`);
      if (log.notFoundTimes && log.notFoundTimes > 0) {
        log.notFoundTimes--;
        return notFound(`${DOCS}/actions/workflow-jobs#download-job-logs-for-a-workflow-run`);
      }
      if (log.failTimes && log.failTimes > 0) {
        log.failTimes--;
        return { status: 500, body: { message: 'Failed to generate URL to download logs', documentation_url: DOCS, status: '500' } };
      }
      if (log.gone) return { status: 410, body: { message: 'Gone', documentation_url: DOCS, status: '410' } };
      return { status: 302, headers: { location: ctx.signBlob('log', `${repo.owner}/${repo.name}/${id}`) }, raw: '' };
    },
  },
  // --- Compare ---------------------------------------------------------------------------------------
  {
    // `base...head` (seeded with addCompare). GitHub's rules: without paging parameters at most 250
    // commits (the newest last); with per_page/page the commits are paged, and the files (at most 300
    // for the whole comparison) come on the first page only.
    method: 'GET',
    template: '/repos/{owner}/{repo}/compare/{basehead}',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const basehead = ctx.params.basehead ?? '';
      const [base, head] = basehead.split('...');
      const cmp = repo && head !== undefined ? repo.compares[basehead] : undefined;
      if (!repo || !cmp) return notFound(`${DOCS}/commits/commits#compare-two-commits`);
      const full = `${repo.owner}/${repo.name}`;
      const paged = ctx.query.has('per_page') || ctx.query.has('page');
      const perPage = Math.min(Math.max(Number(ctx.query.get('per_page') ?? 30) || 30, 1), 100);
      const page = Math.max(Number(ctx.query.get('page') ?? 1) || 1, 1);
      const commits = paged ? cmp.commits.slice((page - 1) * perPage, page * perPage) : cmp.commits.slice(-250);
      const files = !paged || page === 1 ? cmp.files.slice(0, 300) : [];
      const last = Math.max(1, Math.ceil(cmp.commits.length / perPage));
      const headers: Record<string, string> = {};
      if (paged && page < last) {
        const q = new URLSearchParams(ctx.query);
        q.set('per_page', String(perPage));
        q.set('page', String(page + 1));
        const next = `<${ctx.urls.api}/repos/${full}/compare/${basehead}?${q}>; rel="next"`;
        q.set('page', String(last));
        headers.link = `${next}, <${ctx.urls.api}/repos/${full}/compare/${basehead}?${q}>; rel="last"`;
      }
      const baseCommit = renderCommit(ctx.state, ctx.urls, repo, { sha: base!, message: 'base' });
      return {
        status: 200,
        headers,
        body: {
          url: `${ctx.urls.api}/repos/${full}/compare/${basehead}`,
          html_url: `${ctx.urls.html}/${full}/compare/${basehead}`,
          permalink_url: `${ctx.urls.html}/${full}/compare/${repo.owner}:${base!.slice(0, 7)}...${repo.owner}:${head!.slice(0, 7)}`,
          diff_url: `${ctx.urls.html}/${full}/compare/${basehead}.diff`,
          patch_url: `${ctx.urls.html}/${full}/compare/${basehead}.patch`,
          base_commit: baseCommit,
          merge_base_commit: baseCommit,
          status: cmp.commits.length ? 'ahead' : 'identical',
          ahead_by: cmp.commits.length,
          behind_by: 0,
          total_commits: cmp.commits.length,
          commits: commits.map((c) => renderCommit(ctx.state, ctx.urls, repo, c, cmp.commits[cmp.commits.indexOf(c) - 1]?.sha ?? base)),
          files: files.map((f) => renderChangedFile(ctx.urls, repo, head!, f)),
        },
      };
    },
  },
  // --- Pulls -----------------------------------------------------------------------------------------
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      if (!repo) return notFound();
      const state = ctx.query.get('state') ?? 'open';
      const head = ctx.query.get('head');
      const base = ctx.query.get('base');
      const list = Object.values(repo.pulls)
        .filter((p) => state === 'all' || p.state === state)
        .filter((p) => {
          if (!head) return true;
          const headOwner = ctx.state.repos[p.head.repo ?? `${repo.owner}/${repo.name}`]?.owner ?? repo.owner;
          // `head` is `user:ref`; GitHub ignores a head filter without the owner part.
          return !head.includes(':') || head === `${headOwner}:${p.head.ref}`;
        })
        .filter((p) => !base || p.base.ref === base)
        .sort((a, b) => b.number - a.number);
      return paginate(ctx, `/repos/${repo.owner}/${repo.name}/pulls`, list.map((p) => renderPull(ctx.state, ctx.urls, repo, p)));
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const pr = repo?.pulls[int(ctx, 'pull_number')];
      return repo && pr ? { status: 200, body: renderPull(ctx.state, ctx.urls, repo, pr, true) } : notFound();
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/files',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const pr = repo?.pulls[int(ctx, 'pull_number')];
      if (!repo || !pr) return notFound();
      // GitHub lists at most 3000 files.
      return paginate(ctx, `/repos/${repo.owner}/${repo.name}/pulls/${pr.number}/files`, pr.files.slice(0, 3000).map((f) => renderPullFile(ctx.urls, repo, pr, f)));
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/commits/{commit_sha}/pulls',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      if (!repo) return notFound();
      const sha = ctx.params.commit_sha ?? '';
      const numbers = new Set(repo.commitPulls[sha] ?? []);
      for (const p of Object.values(repo.pulls)) if (p.head.sha === sha || p.commits.includes(sha)) numbers.add(p.number);
      const list = [...numbers].map((n) => repo.pulls[n]).filter((p): p is FakePull => Boolean(p));
      return paginate(ctx, `/repos/${repo.owner}/${repo.name}/commits/${sha}/pulls`, list.map((p) => renderPull(ctx.state, ctx.urls, repo, p)));
    },
  },
  // --- Issue comments --------------------------------------------------------------------------------
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      if (!repo) return notFound();
      const n = int(ctx, 'issue_number');
      if (!repo.pulls[n] && !repo.issueComments.some((c) => c.issue_number === n)) return notFound();
      const since = ctx.query.get('since');
      const list = repo.issueComments.filter((c) => c.issue_number === n && (!since || c.updated_at >= since));
      return paginate(ctx, `/repos/${repo.owner}/${repo.name}/issues/${n}/comments`, list.map((c) => renderIssueComment(ctx.state, ctx.urls, repo, c)));
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/issues/{issue_number}/comments',
    handler: (ctx) => {
      const actor = requireActor(ctx);
      if (isReply(actor)) return actor;
      const repo = repoOf(ctx);
      const n = int(ctx, 'issue_number');
      if (!repo || !repo.pulls[n]) return notFound();
      const tooLong = bodyTooLong('IssueComment', ctx.body.body);
      if (tooLong) return tooLong;
      const t = now();
      const c = { id: nextId(ctx.state), issue_number: n, user: actor, body: ctx.body.body as string, author_association: authorAssociation(repo, actor), performed_via_github_app: ctx.installationId !== undefined, created_at: t, updated_at: t, reactions: [] };
      repo.issueComments.push(c);
      const body = renderIssueComment(ctx.state, ctx.urls, repo, c);
      return { status: 201, body, headers: { location: body.url } };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/issues/comments/{comment_id}',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const c = repo?.issueComments.find((x) => x.id === int(ctx, 'comment_id'));
      return repo && c ? { status: 200, body: renderIssueComment(ctx.state, ctx.urls, repo, c) } : notFound();
    },
  },
  ...commentEditRoutes('issues', 'IssueComment'),
  ...reactionRoutes('issues'),
  ...reactionRoutes('pulls'),
  // --- Reviews and review comments -------------------------------------------------------------------
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const pr = repo?.pulls[int(ctx, 'pull_number')];
      if (!repo || !pr) return notFound();
      // Pending reviews are visible to their author only.
      const list = repo.reviews.filter((r) => r.pull_number === pr.number && (r.state !== 'PENDING' || r.user === ctx.actor));
      return paginate(ctx, `/repos/${repo.owner}/${repo.name}/pulls/${pr.number}/reviews`, list.map((r) => renderReview(ctx.state, ctx.urls, repo, r)));
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/reviews',
    handler: (ctx) => {
      const doc = `${DOCS}/pulls/reviews#create-a-review-for-a-pull-request`;
      const actor = requireActor(ctx);
      if (isReply(actor)) return actor;
      const repo = repoOf(ctx);
      const pr = repo?.pulls[int(ctx, 'pull_number')];
      if (!repo || !pr) return notFound();
      const b = ctx.body ?? {};
      if (!commitOk(pr, b.commit_id)) return unprocessable(['Commit is not part of the pull request'], doc);
      const tooLong = bodyTooLong('PullRequestReview', b.body) ?? (b.comments ?? []).map((c: any) => bodyTooLong('PullRequestReviewComment', c.body)).find(Boolean);
      if (tooLong) return tooLong;
      if ((b.event === 'REQUEST_CHANGES' || (b.event === 'COMMENT' && !(b.comments ?? []).length)) && !b.body) {
        return unprocessable([`Review Body is required for ${b.event}`], doc);
      }
      if (!b.event && repo.reviews.some((r) => r.pull_number === pr.number && r.user === actor && r.state === 'PENDING')) {
        return unprocessable(['User can only have one pending review per pull request'], doc);
      }
      // All or nothing: resolve every anchor before storing anything.
      const anchors: Anchor[] = [];
      for (const c of b.comments ?? []) {
        const a = resolveAnchor(pr, c);
        if ('error' in a) {
          const msg = a.field === 'path' ? 'Path could not be resolved' : a.field === 'line' ? 'Line could not be resolved' : a.error;
          const reply = unprocessable([msg], doc);
          reply.violation = { kind: 'rule', message: `${msg} (${c.path}:${c.line ?? c.position ?? '?'}: ${a.error})` };
          return reply;
        }
        anchors.push(a);
      }
      const t = now();
      const state = b.event === 'APPROVE' ? 'APPROVED' : b.event === 'REQUEST_CHANGES' ? 'CHANGES_REQUESTED' : b.event === 'COMMENT' ? 'COMMENTED' : 'PENDING';
      const review = { id: nextId(ctx.state), pull_number: pr.number, user: actor, body: b.body ?? '', state, commit_id: b.commit_id ?? pr.head.sha, submitted_at: state === 'PENDING' ? null : t, comment_ids: [] as number[] } as const;
      const stored = { ...review, comment_ids: [] as number[] };
      repo.reviews.push(stored);
      (b.comments ?? []).forEach((c: any, i: number) => {
        const rc: FakeReviewComment = { id: nextId(ctx.state), pull_number: pr.number, pull_request_review_id: stored.id, user: actor, body: c.body, commit_id: stored.commit_id, author_association: authorAssociation(repo, actor), created_at: t, updated_at: t, reactions: [], ...anchors[i]! };
        repo.reviewComments.push(rc);
        stored.comment_ids.push(rc.id);
      });
      return { status: 200, body: renderReview(ctx.state, ctx.urls, repo, stored) };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const pr = repo?.pulls[int(ctx, 'pull_number')];
      if (!repo || !pr) return notFound();
      const pendingOfOthers = new Set(repo.reviews.filter((r) => r.state === 'PENDING' && r.user !== ctx.actor).map((r) => r.id));
      const list = repo.reviewComments.filter((c) => c.pull_number === pr.number && !pendingOfOthers.has(c.pull_request_review_id ?? -1));
      return paginate(ctx, `/repos/${repo.owner}/${repo.name}/pulls/${pr.number}/comments`, list.map((c) => renderReviewComment(ctx.state, ctx.urls, repo, c)));
    },
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/comments',
    handler: (ctx) => createReviewComment(ctx, ctx.body?.in_reply_to),
  },
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies',
    handler: (ctx) => createReviewComment(ctx, int(ctx, 'comment_id')),
  },
  ...commentEditRoutes('pulls', 'PullRequestReviewComment'),
  // --- Check runs ------------------------------------------------------------------------------------
  {
    method: 'POST',
    template: '/repos/{owner}/{repo}/check-runs',
    handler: (ctx) => {
      if (ctx.installationId === undefined) return { status: 403, body: { message: 'You must authenticate via a GitHub App.', documentation_url: DOCS, status: '403' }, violation: { kind: 'auth', message: 'check runs need an installation token' } };
      const repo = repoOf(ctx);
      if (!repo) return notFound();
      const bad = checkOutputRules(ctx.body);
      if (bad) return bad;
      const run: FakeCheckRun = { id: nextId(ctx.state), name: ctx.body.name, head_sha: ctx.body.head_sha, status: 'queued', conclusion: null, details_url: null, external_id: null, started_at: now(), completed_at: null, output: { title: null, summary: null, text: null }, annotations: [], app: ctx.state.app.slug, check_suite_id: nextId(ctx.state) };
      applyCheckBody(run, ctx.body);
      repo.checkRuns.push(run);
      return { status: 201, body: renderCheckRun(ctx.state, ctx.urls, repo, run) };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/check-runs/{check_run_id}',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const run = repo?.checkRuns.find((r) => r.id === int(ctx, 'check_run_id'));
      return repo && run ? { status: 200, body: renderCheckRun(ctx.state, ctx.urls, repo, run) } : notFound();
    },
  },
  {
    method: 'PATCH',
    template: '/repos/{owner}/{repo}/check-runs/{check_run_id}',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const run = repo?.checkRuns.find((r) => r.id === int(ctx, 'check_run_id'));
      if (!repo || !run) return notFound();
      if (run.app !== ctx.state.app.slug || ctx.installationId === undefined) {
        return { status: 403, body: { message: 'Invalid app_id `' + ctx.state.app.id + '` - check run can only be modified by the GitHub App that created it.', documentation_url: DOCS, status: '403' }, violation: { kind: 'auth', message: 'updating a check run of another App' } };
      }
      const bad = checkOutputRules(ctx.body);
      if (bad) return bad;
      applyCheckBody(run, ctx.body);
      return { status: 200, body: renderCheckRun(ctx.state, ctx.urls, repo, run) };
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/check-runs/{check_run_id}/annotations',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      const run = repo?.checkRuns.find((r) => r.id === int(ctx, 'check_run_id'));
      if (!repo || !run) return notFound();
      return paginate(ctx, `/repos/${repo.owner}/${repo.name}/check-runs/${run.id}/annotations`, run.annotations.map((a) => renderAnnotation(repo, ctx.urls, run, a)));
    },
  },
  {
    method: 'GET',
    template: '/repos/{owner}/{repo}/commits/{ref}/check-runs',
    handler: (ctx) => {
      const repo = repoOf(ctx);
      if (!repo) return notFound();
      const ref = ctx.params.ref ?? '';
      const name = ctx.query.get('check_name');
      const status = ctx.query.get('status');
      const list = repo.checkRuns.filter((r) => r.head_sha === ref && (!name || r.name === name) && (!status || r.status === status));
      return paginate(ctx, `/repos/${repo.owner}/${repo.name}/commits/${ref}/check-runs`, list.map((r) => renderCheckRun(ctx.state, ctx.urls, repo, r)), (page, total) => ({ total_count: total, check_runs: page }));
    },
  },
];

function createReviewComment(ctx: Ctx, replyTo: number | undefined): Reply {
  const doc = `${DOCS}/pulls/comments#create-a-review-comment-for-a-pull-request`;
  const actor = requireActor(ctx);
  if (isReply(actor)) return actor;
  const repo = repoOf(ctx);
  const pr = repo?.pulls[int(ctx, 'pull_number')];
  if (!repo || !pr) return notFound();
  const b = ctx.body ?? {};
  const tooLong = bodyTooLong('PullRequestReviewComment', b.body);
  if (tooLong) return tooLong;
  const t = now();
  let anchor: Anchor;
  let commit = b.commit_id as string | undefined;
  if (replyTo !== undefined) {
    const parent = repo.reviewComments.find((c) => c.id === replyTo && c.pull_number === pr.number);
    if (!parent) return notFound(doc);
    const { path, line, side, start_line, start_side, position, diff_hunk, subject_type } = parent;
    anchor = { path, line, side, start_line, start_side, position, diff_hunk, subject_type };
    commit = parent.commit_id;
  } else {
    if (!commitOk(pr, commit)) {
      return validationFailed([{ resource: 'PullRequestReviewComment', code: 'custom', field: 'commit_id', message: 'commit_id is not part of the pull request' }], doc);
    }
    const a = resolveAnchor(pr, b);
    if ('error' in a) {
      const message = `pull_request_review_thread.${a.field} ${a.error.replace(/^\S+ /, '')}`;
      return validationFailed([{ resource: 'PullRequestReviewComment', code: 'custom', field: `pull_request_review_thread.${a.field}`, message: a.field === 'path' ? 'pull_request_review_thread.path Path could not be resolved' : message }], doc);
    }
    anchor = a;
  }
  const rc: FakeReviewComment = { id: nextId(ctx.state), pull_number: pr.number, pull_request_review_id: nextId(ctx.state), user: actor, body: b.body, commit_id: commit ?? pr.head.sha, author_association: authorAssociation(repo, actor), created_at: t, updated_at: t, reactions: [], ...(replyTo !== undefined ? { in_reply_to_id: replyTo } : {}), ...anchor };
  // A lone comment comes with its own single-comment review, as on GitHub.
  repo.reviews.push({ id: rc.pull_request_review_id!, pull_number: pr.number, user: actor, body: '', state: 'COMMENTED', commit_id: rc.commit_id, submitted_at: t, comment_ids: [rc.id] });
  repo.reviewComments.push(rc);
  const body = renderReviewComment(ctx.state, ctx.urls, repo, rc);
  return { status: 201, body, headers: { location: body.url } };
}
