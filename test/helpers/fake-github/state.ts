/**
 * The fake's state: plain objects a test seeds before starting the App and reads afterwards. Seeds hold
 * only what matters; the routes render GitHub's response shapes from them (render.ts). Records the fake
 * creates (comments, reviews, check runs, reactions) are stored in the same plain form.
 */

export type Permission = 'admin' | 'maintain' | 'write' | 'triage' | 'read' | 'none';

export interface FakeUser {
  login: string;
  id: number;
  type: 'User' | 'Bot' | 'Organization';
}

export interface FakeInstallation {
  id: number;
  /** Login of the account the App is installed on. */
  account: string;
  /** `owner/name` of the repositories it covers. */
  repos: string[];
  permissions?: Record<string, string>;
  events?: string[];
}

export interface FakeReaction {
  id: number;
  user: string;
  content: '+1' | '-1' | 'laugh' | 'confused' | 'heart' | 'hooray' | 'rocket' | 'eyes';
  created_at: string;
}

export interface FakePullFile {
  filename: string;
  status?: 'added' | 'removed' | 'modified' | 'renamed' | 'copied' | 'changed' | 'unchanged';
  /** Unified diff hunks as GitHub gives them (absent for binary or huge files). */
  patch?: string;
  previous_filename?: string;
  /** Line counts GitHub reports without a patch (a text file too large to show); else counted from `patch`. */
  additions?: number;
  deletions?: number;
}

/** One commit of a comparison (GET /compare): what a test needs to say; the rest is rendered. */
export interface FakeCommit {
  sha: string;
  message: string;
  author?: string;
}

/** A seeded comparison `base...head`: its commits (oldest first, as GitHub lists them) and changed files. */
export interface FakeCompare {
  base: string;
  head: string;
  commits: FakeCommit[];
  files: FakePullFile[];
}

export interface FakePullSide {
  ref: string;
  sha: string;
  /** `owner/name` of the repository the branch is in: another one for fork PRs. Default: the PR's repo. */
  repo?: string;
}

export interface FakePull {
  number: number;
  id: number;
  title: string;
  body: string | null;
  state: 'open' | 'closed';
  draft: boolean;
  merged: boolean;
  user: string;
  head: FakePullSide;
  base: FakePullSide;
  files: FakePullFile[];
  /** Extra commit SHAs of the PR (a review's `commit_id` must be the head or one of these). */
  commits: string[];
  created_at: string;
  updated_at: string;
}

export interface FakeStep {
  name: string;
  number: number;
  status: 'queued' | 'in_progress' | 'completed';
  conclusion: string | null;
}

export interface FakeJob {
  id: number;
  run_id: number;
  name: string;
  workflow_name: string;
  head_sha: string;
  head_branch: string;
  status: 'queued' | 'in_progress' | 'completed' | 'waiting' | 'requested' | 'pending';
  conclusion: 'success' | 'failure' | 'neutral' | 'cancelled' | 'skipped' | 'timed_out' | 'action_required' | null;
  run_attempt: number;
  steps: FakeStep[];
  labels: string[];
  started_at: string;
  completed_at: string | null;
  /** The workflow the job's run belongs to (default 1, `.github/workflows/ci.yml`): the runs list's `workflow_id`. */
  workflow_id?: number;
  workflow_path?: string;
  /** The run's event (default `pull_request`). */
  event?: string;
  /** The runner that ran it (default `GitHub Actions 1`): how a step finds its own job in the run's list. */
  runner_name?: string;
}

export interface FakeLog {
  text: string;
  /** Served instead of `text` when set: a log too big to hold (a generated 1 GB passing log), one fresh stream per download. */
  stream?: () => import('node:stream').Readable;
  /** Answer 404 this many times before serving the log (a job still running, as GitHub does). */
  notFoundTimes?: number;
  /** Answer 410 Gone (an expired log). */
  gone?: boolean;
  /** Answer 500 "Failed to generate URL" this many times first. */
  failTimes?: number;
  /** Default `text/plain; charset=utf-8`. */
  contentType?: string;
}

export interface FakeIssueComment {
  id: number;
  issue_number: number;
  user: string;
  body: string;
  author_association: string;
  performed_via_github_app: boolean;
  created_at: string;
  updated_at: string;
  reactions: FakeReaction[];
}

export interface FakeReviewComment {
  id: number;
  pull_number: number;
  pull_request_review_id: number | null;
  user: string;
  body: string;
  path: string;
  commit_id: string;
  subject_type: 'line' | 'file';
  line: number | null;
  side: 'LEFT' | 'RIGHT' | null;
  start_line: number | null;
  start_side: 'LEFT' | 'RIGHT' | null;
  position: number | null;
  diff_hunk: string;
  in_reply_to_id?: number;
  author_association: string;
  created_at: string;
  updated_at: string;
  reactions: FakeReaction[];
}

export interface FakeReview {
  id: number;
  pull_number: number;
  user: string;
  body: string;
  state: 'PENDING' | 'COMMENTED' | 'APPROVED' | 'CHANGES_REQUESTED';
  commit_id: string;
  submitted_at: string | null;
  /** Ids of the review comments created with it. */
  comment_ids: number[];
}

export interface FakeAnnotation {
  path: string;
  start_line: number;
  end_line: number;
  start_column?: number;
  end_column?: number;
  annotation_level: 'notice' | 'warning' | 'failure';
  message: string;
  title?: string;
  raw_details?: string;
}

export interface FakeCheckRun {
  id: number;
  name: string;
  head_sha: string;
  status: string;
  conclusion: string | null;
  details_url: string | null;
  external_id: string | null;
  started_at: string | null;
  completed_at: string | null;
  output: { title: string | null; summary: string | null; text: string | null };
  annotations: FakeAnnotation[];
  /** App slug that owns it (the fake's App for runs it creates; e.g. 'github-actions' for seeded ones). */
  app: string;
  check_suite_id: number;
}

export interface FakeRepo {
  id: number;
  owner: string;
  name: string;
  private: boolean;
  default_branch: string;
  /** Set for forks: `owner/name` of the parent. */
  fork_of?: string;
  /** Collaborator permissions by login; others get `read` on a public repo, `none` on a private one. */
  permissions: Record<string, Permission>;
  /** File contents by path (any ref), for GET /contents/{path}. */
  contents: Record<string, string>;
  /** gzip tarballs by ref (SHA or branch), for GET /tarball/{ref}. See makeTarball. */
  tarballs: Record<string, Buffer>;
  pulls: Record<number, FakePull>;
  /** Extra commit → PR numbers links for GET /commits/{sha}/pulls (PR heads are linked already). */
  commitPulls: Record<string, number[]>;
  jobs: Record<number, FakeJob>;
  logs: Record<number, FakeLog>;
  /** Comparisons by `base...head` (GET /compare/{basehead}). */
  compares: Record<string, FakeCompare>;
  issueComments: FakeIssueComment[];
  reviewComments: FakeReviewComment[];
  reviews: FakeReview[];
  checkRuns: FakeCheckRun[];
}

export interface FakeApp {
  id: number;
  slug: string;
  name: string;
  owner: string;
}

export interface FakeState {
  app: FakeApp;
  users: Record<string, FakeUser>;
  installations: Record<number, FakeInstallation>;
  /** By `owner/name`. */
  repos: Record<string, FakeRepo>;
  /** Issued tokens → the login they act as (installation tokens act as `<slug>[bot]`). */
  tokens: Record<string, { login: string; installationId?: number; expires_at: string }>;
  nextId: number;
  /**
   * The primary rate limit, per credential (an installation, a user's token, or anonymous by nothing):
   * requests used in the current hour window. GitHub counts per installation and per user.
   */
  rateLimit: {
    limit: number;
    /** What a credential's first window starts with (setRateLimit): requests already used, and its reset (epoch s). */
    initialUsed: number;
    initialResetAt?: number;
    windows: Record<string, { used: number; resetAt: number }>;
  };
}

export function newState(app: FakeApp): FakeState {
  return { app, users: {}, installations: {}, repos: {}, tokens: {}, nextId: 1000, rateLimit: { limit: 5000, initialUsed: 0, windows: {} } };
}

/** A fresh id (GitHub ids are global per type; one counter keeps them unique across types). */
export function nextId(state: FakeState): number {
  return ++state.nextId;
}

/** The user with this login, created on first use (`[bot]` logins are Bots). */
export function ensureUser(state: FakeState, login: string, type?: FakeUser['type']): FakeUser {
  return (state.users[login] ??= {
    login,
    id: nextId(state),
    type: type ?? (login.endsWith('[bot]') ? 'Bot' : 'User'),
  });
}

export const now = (): string => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
