import { parsePatch } from './diff-hunks.js';
import type {
  FakeCheckRun,
  FakeCommit,
  FakeInstallation,
  FakeIssueComment,
  FakeJob,
  FakePull,
  FakePullFile,
  FakeReaction,
  FakeRepo,
  FakeReview,
  FakeReviewComment,
  FakeState,
} from './state.js';
import { ensureUser } from './state.js';

/**
 * GitHub's REST response shapes, rendered from the plain state. Only the fields a client plausibly reads,
 * but with the real names and types (ids are numbers, node_id strings, timestamps ISO 8601, urls absolute).
 */

export interface Urls {
  /** API root the request came in on (`http://127.0.0.1:p` or `…/api/v3`). */
  api: string;
  /** Web root for html_url (default `https://github.com`). */
  html: string;
}

const nodeId = (prefix: string, id: number): string =>
  `${prefix}_${Buffer.from(`0:${id}`).toString('base64url')}`;

export function renderUser(state: FakeState, u: Urls, login: string) {
  const user = ensureUser(state, login);
  return {
    login: user.login,
    id: user.id,
    node_id: nodeId(user.type === 'Bot' ? 'BOT' : 'U', user.id),
    avatar_url: `https://avatars.githubusercontent.com/u/${user.id}?v=4`,
    gravatar_id: '',
    url: `${u.api}/users/${encodeURIComponent(user.login)}`,
    html_url: `${u.html}/${user.type === 'Bot' ? 'apps/' + user.login.replace(/\[bot\]$/, '') : user.login}`,
    type: user.type,
    site_admin: false,
  };
}

export function renderRepo(state: FakeState, u: Urls, repo: FakeRepo) {
  const full = `${repo.owner}/${repo.name}`;
  const parent = repo.fork_of ? state.repos[repo.fork_of] : undefined;
  return {
    id: repo.id,
    node_id: nodeId('R', repo.id),
    name: repo.name,
    full_name: full,
    private: repo.private,
    owner: renderUser(state, u, repo.owner),
    html_url: `${u.html}/${full}`,
    description: null,
    fork: Boolean(repo.fork_of),
    url: `${u.api}/repos/${full}`,
    default_branch: repo.default_branch,
    visibility: repo.private ? 'private' : 'public',
    ...(parent ? { parent: { id: parent.id, full_name: `${parent.owner}/${parent.name}` } } : {}),
  };
}

function renderSide(state: FakeState, u: Urls, repo: FakeRepo, side: FakePull['head']) {
  const sideRepo = state.repos[side.repo ?? `${repo.owner}/${repo.name}`];
  const owner = sideRepo?.owner ?? repo.owner;
  return {
    label: `${owner}:${side.ref}`,
    ref: side.ref,
    sha: side.sha,
    user: renderUser(state, u, owner),
    repo: sideRepo ? renderRepo(state, u, sideRepo) : null, // null: the fork was deleted
  };
}

/** A pull request, as in GET /pulls (list) or, with `full`, GET /pulls/{n}. */
export function renderPull(state: FakeState, u: Urls, repo: FakeRepo, pr: FakePull, full = false) {
  const full_name = `${repo.owner}/${repo.name}`;
  const url = `${u.api}/repos/${full_name}/pulls/${pr.number}`;
  const base = {
    url,
    id: pr.id,
    node_id: nodeId('PR', pr.id),
    html_url: `${u.html}/${full_name}/pull/${pr.number}`,
    diff_url: `${u.html}/${full_name}/pull/${pr.number}.diff`,
    patch_url: `${u.html}/${full_name}/pull/${pr.number}.patch`,
    issue_url: `${u.api}/repos/${full_name}/issues/${pr.number}`,
    commits_url: `${url}/commits`,
    review_comments_url: `${url}/comments`,
    comments_url: `${u.api}/repos/${full_name}/issues/${pr.number}/comments`,
    number: pr.number,
    state: pr.state,
    locked: false,
    title: pr.title,
    user: renderUser(state, u, pr.user),
    body: pr.body,
    labels: [],
    created_at: pr.created_at,
    updated_at: pr.updated_at,
    closed_at: pr.state === 'closed' ? pr.updated_at : null,
    merged_at: pr.merged ? pr.updated_at : null,
    merge_commit_sha: null,
    draft: pr.draft,
    head: renderSide(state, u, repo, pr.head),
    base: renderSide(state, u, repo, pr.base),
    author_association: authorAssociation(repo, pr.user),
    auto_merge: null,
  };
  if (!full) return base;
  const diffs = pr.files.map((f) => parsePatch(f.patch));
  return {
    ...base,
    merged: pr.merged,
    mergeable: pr.state === 'open' ? true : null,
    mergeable_state: pr.state === 'open' ? 'clean' : 'unknown',
    comments: repo.issueComments.filter((c) => c.issue_number === pr.number).length,
    review_comments: repo.reviewComments.filter((c) => c.pull_number === pr.number).length,
    commits: 1 + pr.commits.length,
    additions: diffs.reduce((n, d) => n + d.additions, 0),
    deletions: diffs.reduce((n, d) => n + d.deletions, 0),
    changed_files: pr.files.length,
  };
}

export function renderPullFile(u: Urls, repo: FakeRepo, pr: FakePull, f: FakePullFile) {
  return renderChangedFile(u, repo, pr.head.sha, f);
}

/** A changed file as the PR files and compare APIs list it, at the head commit `sha`. */
export function renderChangedFile(u: Urls, repo: FakeRepo, sha: string, f: FakePullFile) {
  const d = parsePatch(f.patch);
  const full = `${repo.owner}/${repo.name}`;
  const path = f.filename.split('/').map(encodeURIComponent).join('/');
  const additions = f.additions ?? d.additions;
  const deletions = f.deletions ?? d.deletions;
  return {
    sha: blobSha(`${sha}:${f.filename}`),
    filename: f.filename,
    status: f.status ?? 'modified',
    additions,
    deletions,
    changes: additions + deletions,
    blob_url: `${u.html}/${full}/blob/${sha}/${path}`,
    raw_url: `${u.html}/${full}/raw/${sha}/${path}`,
    contents_url: `${u.api}/repos/${full}/contents/${path}?ref=${sha}`,
    ...(f.patch !== undefined ? { patch: f.patch } : {}),
    ...(f.previous_filename ? { previous_filename: f.previous_filename } : {}),
  };
}

/** A commit as the compare and commits APIs list it (git author = committer = the login, no signature). */
export function renderCommit(state: FakeState, u: Urls, repo: FakeRepo, c: FakeCommit, parent?: string) {
  const full = `${repo.owner}/${repo.name}`;
  const login = c.author ?? 'octocat';
  const person = { name: login, email: `${login}@users.noreply.github.com`, date: '2026-11-29T10:00:00Z' };
  return {
    url: `${u.api}/repos/${full}/commits/${c.sha}`,
    sha: c.sha,
    node_id: `C_${Buffer.from(c.sha).toString('base64url').slice(0, 20)}`,
    html_url: `${u.html}/${full}/commit/${c.sha}`,
    comments_url: `${u.api}/repos/${full}/commits/${c.sha}/comments`,
    commit: {
      url: `${u.api}/repos/${full}/git/commits/${c.sha}`,
      author: person,
      committer: person,
      message: c.message,
      comment_count: 0,
      tree: { sha: blobSha(`tree:${c.sha}`), url: `${u.api}/repos/${full}/git/trees/${blobSha(`tree:${c.sha}`)}` },
      verification: { verified: false, reason: 'unsigned', signature: null, payload: null, verified_at: null },
    },
    author: renderUser(state, u, login),
    committer: renderUser(state, u, login),
    parents: parent ? [{ sha: parent, url: `${u.api}/repos/${full}/commits/${parent}`, html_url: `${u.html}/${full}/commit/${parent}` }] : [],
  };
}

export function authorAssociation(repo: FakeRepo, login: string): string {
  if (login === repo.owner) return 'OWNER';
  const p = repo.permissions[login];
  if (p && p !== 'none' && p !== 'read') return 'COLLABORATOR';
  return login.endsWith('[bot]') ? 'NONE' : 'CONTRIBUTOR';
}

export function renderJob(u: Urls, repo: FakeRepo, job: FakeJob) {
  const full = `${repo.owner}/${repo.name}`;
  return {
    id: job.id,
    run_id: job.run_id,
    workflow_name: job.workflow_name,
    head_branch: job.head_branch,
    run_url: `${u.api}/repos/${full}/actions/runs/${job.run_id}`,
    run_attempt: job.run_attempt,
    node_id: nodeId('CR', job.id),
    head_sha: job.head_sha,
    url: `${u.api}/repos/${full}/actions/jobs/${job.id}`,
    html_url: `${u.html}/${full}/actions/runs/${job.run_id}/job/${job.id}`,
    status: job.status,
    conclusion: job.conclusion,
    created_at: job.started_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
    name: job.name,
    steps: job.steps.map((s) => ({
      name: s.name,
      status: s.status,
      conclusion: s.conclusion,
      number: s.number,
      started_at: job.started_at,
      completed_at: s.status === 'completed' ? (job.completed_at ?? job.started_at) : null,
    })),
    check_run_url: `${u.api}/repos/${full}/check-runs/${job.id}`,
    labels: job.labels,
    runner_id: 1,
    runner_name: job.runner_name ?? 'GitHub Actions 1',
    runner_group_id: 1,
    runner_group_name: 'GitHub Actions',
  };
}

export function renderReactionRollup(u: Urls, url: string, reactions: FakeReaction[]) {
  const count = (c: string) => reactions.filter((r) => r.content === c).length;
  void u;
  return {
    url: `${url}/reactions`,
    total_count: reactions.length,
    '+1': count('+1'),
    '-1': count('-1'),
    laugh: count('laugh'),
    hooray: count('hooray'),
    confused: count('confused'),
    heart: count('heart'),
    rocket: count('rocket'),
    eyes: count('eyes'),
  };
}

export function renderReaction(state: FakeState, u: Urls, r: FakeReaction) {
  return {
    id: r.id,
    node_id: nodeId('REA', r.id),
    user: renderUser(state, u, r.user),
    content: r.content,
    created_at: r.created_at,
  };
}

function appBlock(state: FakeState, u: Urls) {
  const a = state.app;
  return {
    id: a.id,
    slug: a.slug,
    node_id: nodeId('A', a.id),
    owner: renderUser(state, u, a.owner),
    name: a.name,
    description: '',
    external_url: `${u.html}/apps/${a.slug}`,
    html_url: `${u.html}/apps/${a.slug}`,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    permissions: {},
    events: [],
  };
}

export function renderIssueComment(state: FakeState, u: Urls, repo: FakeRepo, c: FakeIssueComment) {
  const full = `${repo.owner}/${repo.name}`;
  const url = `${u.api}/repos/${full}/issues/comments/${c.id}`;
  return {
    url,
    html_url: `${u.html}/${full}/pull/${c.issue_number}#issuecomment-${c.id}`,
    issue_url: `${u.api}/repos/${full}/issues/${c.issue_number}`,
    id: c.id,
    node_id: nodeId('IC', c.id),
    user: renderUser(state, u, c.user),
    created_at: c.created_at,
    updated_at: c.updated_at,
    author_association: c.author_association,
    body: c.body,
    reactions: renderReactionRollup(u, url, c.reactions),
    performed_via_github_app: c.performed_via_github_app ? appBlock(state, u) : null,
  };
}

export function renderReviewComment(state: FakeState, u: Urls, repo: FakeRepo, c: FakeReviewComment) {
  const full = `${repo.owner}/${repo.name}`;
  const url = `${u.api}/repos/${full}/pulls/comments/${c.id}`;
  const prUrl = `${u.api}/repos/${full}/pulls/${c.pull_number}`;
  return {
    url,
    pull_request_review_id: c.pull_request_review_id,
    id: c.id,
    node_id: nodeId('PRRC', c.id),
    diff_hunk: c.diff_hunk,
    path: c.path,
    position: c.position,
    original_position: c.position,
    commit_id: c.commit_id,
    original_commit_id: c.commit_id,
    ...(c.in_reply_to_id ? { in_reply_to_id: c.in_reply_to_id } : {}),
    user: renderUser(state, u, c.user),
    body: c.body,
    created_at: c.created_at,
    updated_at: c.updated_at,
    html_url: `${u.html}/${full}/pull/${c.pull_number}#discussion_r${c.id}`,
    pull_request_url: prUrl,
    author_association: c.author_association,
    _links: { self: { href: url }, html: { href: `${u.html}/${full}/pull/${c.pull_number}#discussion_r${c.id}` }, pull_request: { href: prUrl } },
    reactions: renderReactionRollup(u, url, c.reactions),
    start_line: c.start_line,
    original_start_line: c.start_line,
    start_side: c.start_side,
    line: c.line,
    original_line: c.line,
    side: c.side,
    subject_type: c.subject_type,
  };
}

export function renderReview(state: FakeState, u: Urls, repo: FakeRepo, r: FakeReview) {
  const full = `${repo.owner}/${repo.name}`;
  const html = `${u.html}/${full}/pull/${r.pull_number}#pullrequestreview-${r.id}`;
  const prUrl = `${u.api}/repos/${full}/pulls/${r.pull_number}`;
  return {
    id: r.id,
    node_id: nodeId('PRR', r.id),
    user: renderUser(state, u, r.user),
    body: r.body,
    state: r.state,
    html_url: html,
    pull_request_url: prUrl,
    author_association: authorAssociation(repo, r.user),
    _links: { html: { href: html }, pull_request: { href: prUrl } },
    ...(r.submitted_at ? { submitted_at: r.submitted_at } : {}),
    commit_id: r.commit_id,
  };
}

export function renderCheckRun(state: FakeState, u: Urls, repo: FakeRepo, c: FakeCheckRun) {
  const full = `${repo.owner}/${repo.name}`;
  const url = `${u.api}/repos/${full}/check-runs/${c.id}`;
  const own = c.app === state.app.slug;
  return {
    id: c.id,
    head_sha: c.head_sha,
    node_id: nodeId('CR', c.id),
    external_id: c.external_id ?? '',
    url,
    html_url: `${u.html}/${full}/runs/${c.id}`,
    details_url: c.details_url ?? `${u.html}/${full}/runs/${c.id}`,
    status: c.status,
    conclusion: c.conclusion,
    started_at: c.started_at,
    completed_at: c.completed_at,
    output: { ...c.output, annotations_count: c.annotations.length, annotations_url: `${url}/annotations` },
    name: c.name,
    check_suite: { id: c.check_suite_id },
    app: own
      ? appBlock(state, u)
      : { ...appBlock(state, u), id: 15368, slug: c.app, name: c.app === 'github-actions' ? 'GitHub Actions' : c.app },
    pull_requests: Object.values(repo.pulls)
      .filter((p) => p.head.sha === c.head_sha && p.state === 'open' && !p.head.repo)
      .map((p) => ({
        url: `${u.api}/repos/${full}/pulls/${p.number}`,
        id: p.id,
        number: p.number,
        head: { ref: p.head.ref, sha: p.head.sha, repo: { id: repo.id, url: `${u.api}/repos/${full}`, name: repo.name } },
        base: { ref: p.base.ref, sha: p.base.sha, repo: { id: repo.id, url: `${u.api}/repos/${full}`, name: repo.name } },
      })),
  };
}

export function renderAnnotation(repo: FakeRepo, u: Urls, c: FakeCheckRun, a: FakeCheckRun['annotations'][number]) {
  return {
    path: a.path,
    blob_href: `${u.html}/${repo.owner}/${repo.name}/blob/${c.head_sha}/${a.path}`,
    start_line: a.start_line,
    end_line: a.end_line,
    start_column: a.start_column ?? null,
    end_column: a.end_column ?? null,
    annotation_level: a.annotation_level,
    title: a.title ?? '',
    message: a.message,
    raw_details: a.raw_details ?? '',
  };
}

export function renderInstallation(state: FakeState, u: Urls, i: FakeInstallation) {
  const account = state.users[i.account];
  return {
    id: i.id,
    account: renderUser(state, u, i.account),
    repository_selection: 'selected',
    access_tokens_url: `${u.api}/app/installations/${i.id}/access_tokens`,
    repositories_url: `${u.api}/installation/repositories`,
    html_url: `${u.html}/settings/installations/${i.id}`,
    app_id: state.app.id,
    app_slug: state.app.slug,
    target_id: account?.id ?? 0,
    target_type: account?.type === 'Organization' ? 'Organization' : 'User',
    permissions: i.permissions ?? defaultPermissions(),
    events: i.events ?? ['check_run', 'issue_comment', 'workflow_job'],
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    single_file_name: null,
    has_multiple_single_files: false,
    single_file_paths: [],
    suspended_by: null,
    suspended_at: null,
  };
}

export const defaultPermissions = (): Record<string, string> => ({
  actions: 'read',
  checks: 'write',
  contents: 'read',
  metadata: 'read',
  pull_requests: 'write',
  issues: 'write',
});

/** A git-like 40-hex id, stable for the same input. */
export function blobSha(s: string): string {
  // FNV-style mix stretched to 40 hex chars: cheap and deterministic, not a real git hash.
  let h = 2166136261;
  let out = '';
  for (let round = 0; out.length < 40; round++) {
    for (const ch of `${round}:${s}`) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 40);
}
