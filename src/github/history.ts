/**
 * The job's history on GitHub (issue 15), for the App and the Action alike: the last green run of the
 * same job and its log (the passing log diagnose diffs against), the base branch's latest completed run
 * (pre-existing when it fails the same way), another attempt of the same SHA that passed, and a failure
 * on the base that later passed (flaky). What is found travels on the diagnose request; nothing here
 * decides the status (evidence/history-status.ts does).
 *
 * Bounded: at most HISTORY_MAX_REQUESTS API requests per failure (log downloads from storage are the
 * redirect targets of those), runs at most HISTORY_MAX_AGE_DAYS old, lookups cached per (workflow, job,
 * sha), and nothing at all when the rate-limit budget is low. Whatever is skipped says so in one note.
 */
import type { Readable } from 'node:stream';
import type { LogSource } from '../log/open-log.js';
import type { HistoryFacts } from '../evidence/history-status.js';
import type { PassingSide } from '../evidence/passing-diff.js';
import type { RunRef } from '../types.js';
import { type GitHub, type RepoRef, statusOf } from './client.js';
import { LogGoneError } from './errors.js';
import { compareRequest, priorFromCompare, type CompareAnswer, type ComparePrior } from './compare.js';
import { openCompletedJobLog } from './logs.js';
import { HISTORY_CACHE_ENTRIES, HISTORY_CACHE_MS, HISTORY_MAX_AGE_DAYS, HISTORY_MAX_REQUESTS, HISTORY_MIN_RATE_REMAINING, HISTORY_RUNS_PER_PAGE } from './limits.js';

/** The failing job, as the door knows it. */
export interface HistoryQuery {
  ref: RepoRef;
  /** The job's own name in its run (`build (ubuntu, 20)`), which the same job has in every run. */
  job: string;
  runId: number;
  runAttempt?: number;
  headSha: string;
  headBranch?: string | null;
  /** The PR's base branch (the repository's default branch for pushes). */
  baseBranch?: string;
  /** The workflow's id or file name, when the door knows it (the Action reads GITHUB_WORKFLOW_REF); else one request finds it. */
  workflow?: number | string;
  /** Requests the door already spent on this failure's history (the Action's mode 2 finding its own job). */
  spent?: number;
}

export interface HistoryFound {
  facts: HistoryFacts;
  /** The last green run's log of the same job, as the request's passing log. */
  passingLog?: PassingSide;
  /** The commits since the last green run (GitHub's compare): the diff prior of a push or a silent PR diff. */
  priorDiff?: ComparePrior;
  /** API requests spent (≤ HISTORY_MAX_REQUESTS). */
  requests: number;
}

export interface HistoryOptions {
  now?: () => number;
  /** Lookups cached across calls (the App and the worker keep one each); none when absent. */
  cache?: HistoryCache;
}

interface Run {
  id: number;
  run_number?: number;
  run_attempt?: number;
  head_sha: string;
  head_branch?: string | null;
  html_url?: string;
  conclusion: string | null;
  status?: string | null;
  workflow_id?: number;
  created_at?: string;
}
interface Job {
  id: number;
  name: string;
  conclusion: string | null;
  status?: string;
  run_attempt?: number;
  head_sha?: string;
  html_url?: string | null;
}

/** What a lookup found, without the logs (streams are read once; the cache keeps which job to read). */
interface Lookup {
  at: number;
  lastGreen?: { run: RunRef; jobId?: number };
  baseFailing?: { run: RunRef & { branch: string }; jobId: number };
  baseFlip?: { failed: RunRef; jobId: number; passed: RunRef; branch: string };
  passedOnRetry?: RunRef;
  priorDiff?: ComparePrior;
  notes: string[];
}

export type HistoryCache = Map<string, Lookup>;

/** Thrown by the budget once the hour's rate limit runs low: the lookup stops where it is. */
class RateBudgetLow extends Error {}

class Budget {
  used = 0;
  low = false;
  /** The rate limit as GitHub last reported it, for the note. */
  quota?: { remaining: number; limit: number };
  constructor(private readonly gh: GitHub) {}
  get left(): number {
    return this.low ? 0 : HISTORY_MAX_REQUESTS - this.used;
  }
  async request<T>(route: string, params: Record<string, unknown>): Promise<T> {
    if (this.low) throw new RateBudgetLow();
    this.used++;
    const res = await this.gh.request(route, params);
    const headers = res.headers as Record<string, string | undefined>;
    const remaining = Number(headers['x-ratelimit-remaining']);
    if (headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(remaining)) {
      this.quota = { remaining, limit: Number(headers['x-ratelimit-limit']) || 0 };
      if (remaining < HISTORY_MIN_RATE_REMAINING) this.low = true;
    }
    return res.data as T;
  }
  /** One line for the note: why the lookup stopped. */
  lowNote(): string {
    const q = this.quota;
    return `history skipped: rate-limit budget low (${q ? `${q.remaining}${q.limit ? ` of ${q.limit}` : ''} requests left this hour` : 'GitHub says so'}; history needs ${HISTORY_MIN_RATE_REMAINING} to spare)`;
  }
}

const runRef = (r: Run): RunRef => ({ runId: r.id, sha: r.head_sha, ...(r.html_url ? { url: r.html_url } : {}), ...(r.run_number !== undefined ? { runNumber: r.run_number } : {}), ...(r.run_attempt !== undefined ? { attempt: r.run_attempt } : {}) });

/**
 * Finds what the job's other runs say. Never throws for GitHub's answers: a 404, a 410 or a 5xx ends
 * the search with a note, and the diagnosis goes on as without history.
 */
export async function findHistory(gh: GitHub, q: HistoryQuery, opts: HistoryOptions = {}): Promise<HistoryFound> {
  const now = opts.now ?? Date.now;
  const cache = opts.cache ?? new Map<string, Lookup>();
  const budget = new Budget(gh);
  budget.used = q.spent ?? 0;
  const key = `${q.ref.owner}/${q.ref.repo}\0${q.workflow ?? q.runId}\0${q.job}\0${q.headSha}\0${q.runAttempt ?? 1}`;
  let found = cache.get(key);
  if (!found || now() - found.at > HISTORY_CACHE_MS) {
    found = await lookUp(budget, q, now());
    cache.set(key, found);
    while (cache.size > HISTORY_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  // The logs: each one request while the budget lasts (the cached lookup spent none on them yet).
  const notes = [...found.notes];
  const facts: HistoryFacts = {};
  if (found.passedOnRetry) facts.passedOnRetry = found.passedOnRetry;
  if (found.lastGreen) facts.lastGreen = found.lastGreen.run;
  const open = async (jobId: number, what: string): Promise<Readable | undefined> => {
    if (budget.left <= 0) {
      notes.push(`${what} not read: ${budget.low ? 'rate-limit budget low' : `request budget (${HISTORY_MAX_REQUESTS}) spent`}`);
      return undefined;
    }
    budget.used++;
    try {
      return await openCompletedJobLog(gh, q.ref, jobId);
    } catch (e) {
      notes.push(e instanceof LogGoneError ? `${what} has expired (HTTP 410)` : `${what} could not be read (${statusOf(e) ?? (e as Error).message})`);
      return undefined;
    }
  };
  if (found.baseFailing) {
    const log = await open(found.baseFailing.jobId, `the log of ${found.baseFailing.run.branch}'s run #${found.baseFailing.run.runNumber ?? found.baseFailing.run.runId}`);
    if (log) facts.baseFailing = { ...found.baseFailing.run, log: log as LogSource };
  }
  if (found.baseFlip && !facts.baseFailing && !facts.passedOnRetry) {
    const log = await open(found.baseFlip.jobId, `the log of the failed run #${found.baseFlip.failed.runNumber ?? found.baseFlip.failed.runId} on ${found.baseFlip.branch}`);
    if (log) facts.baseFlip = { failed: { ...found.baseFlip.failed, log }, passed: found.baseFlip.passed, branch: found.baseFlip.branch };
  }
  let passingLog: PassingSide | undefined;
  if (found.lastGreen?.jobId !== undefined && !facts.baseFailing && !facts.passedOnRetry) {
    const log = await open(found.lastGreen.jobId, `the last green run's log (run #${found.lastGreen.run.runNumber ?? found.lastGreen.run.runId})`);
    if (log) passingLog = { source: log };
  }
  if (notes.length) facts.notes = notes;
  const priorDiff = !facts.baseFailing && !facts.passedOnRetry ? found.priorDiff : undefined;
  return { facts, ...(passingLog ? { passingLog } : {}), ...(priorDiff ? { priorDiff } : {}), requests: budget.used };
}

async function lookUp(budget: Budget, q: HistoryQuery, now: number): Promise<Lookup> {
  const out: Lookup = { at: now, notes: [] };
  try {
    await lookUpInto(budget, q, now, out);
  } catch (e) {
    if (!(e instanceof RateBudgetLow)) out.notes.push(`history lookup stopped (${statusOf(e) ? `HTTP ${statusOf(e)}` : (e as Error).message.slice(0, 120)})`);
  }
  // A lookup cut short by the rate limit says that alone: what it did not find is no finding.
  if (budget.low) {
    out.notes = [budget.lowNote()];
    delete out.lastGreen;
    delete out.priorDiff;
    delete out.baseFlip;
    delete out.baseFailing;
  }
  return out;
}

async function lookUpInto(budget: Budget, q: HistoryQuery, now: number, out: Lookup): Promise<void> {
  const { ref } = q;
  // 1. Which workflow (the Action knows it; the App asks the run), and whether this is a re-run.
  let workflow = q.workflow;
  if (workflow === undefined) {
    const run = await budget.request<Run>('GET /repos/{owner}/{repo}/actions/runs/{run_id}', { ...ref, run_id: q.runId });
    workflow = run.workflow_id;
  }
  if (workflow === undefined) {
    out.notes.push('history skipped: the run names no workflow');
    return;
  }
  // 2. Another attempt of this run passed the same job: flaky, nothing more to look up.
  if ((q.runAttempt ?? 1) > 1 && budget.left > 0) {
    const jobs = (await budget.request<{ jobs: Job[] }>('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...ref, run_id: q.runId, filter: 'all', per_page: 100 })).jobs;
    const passed = jobs.find((j) => j.name === q.job && j.conclusion === 'success' && j.run_attempt !== q.runAttempt);
    if (passed) {
      out.passedOnRetry = { runId: q.runId, sha: q.headSha, ...(passed.html_url ? { url: passed.html_url } : {}), ...(passed.run_attempt !== undefined ? { attempt: passed.run_attempt } : {}) };
      return;
    }
  }
  // Newest first; the age bound is applied here (the `created` filter's search syntax is not the
  // date-time GitHub's OpenAPI description declares for it).
  const oldest = now - HISTORY_MAX_AGE_DAYS * 86_400_000;
  const list = async (params: Record<string, unknown>): Promise<Run[]> =>
    (await budget.request<{ workflow_runs: Run[] }>('GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs', { ...ref, workflow_id: workflow, per_page: HISTORY_RUNS_PER_PAGE, exclude_pull_requests: true, ...params })).workflow_runs.filter(
      (r) => r.id !== q.runId && (!r.created_at || Date.parse(r.created_at) >= oldest),
    );
  const jobIn = async (run: Run): Promise<Job | undefined> =>
    (await budget.request<{ jobs: Job[] }>('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...ref, run_id: run.id, per_page: 100 })).jobs.find((j) => j.name === q.job);

  // 3. The base branch's last completed runs: the latest one (pre-existing?), the last green, a flip.
  const base = q.baseBranch;
  const onBase = base && budget.left > 0 ? await list({ branch: base, status: 'completed' }) : [];
  const decided = onBase.filter((r) => r.conclusion === 'success' || r.conclusion === 'failure');
  const latest = decided[0];
  let green = decided.find((r) => r.conclusion === 'success');
  if (latest?.conclusion === 'failure' && budget.left > 1) {
    const job = await jobIn(latest);
    if (job?.conclusion === 'failure') out.baseFailing = { run: { ...runRef(latest), branch: base! }, jobId: job.id };
    else if (job?.conclusion === 'success') green = latest;
  }
  // A failure on the base that a later run passed: the flaky candidate (its log says which test).
  const flipped = !out.baseFailing && green ? decided.slice(decided.indexOf(green) + 1).find((r) => r.conclusion === 'failure') : undefined;
  // 4. No green run on the base within range: the head branch's (a push, or a PR's earlier commits).
  if (!green && q.headBranch && q.headBranch !== base && budget.left > 2) green = (await list({ branch: q.headBranch, status: 'success' }))[0];
  if (green?.head_sha === q.headSha) {
    out.passedOnRetry = runRef(green);
    return;
  }
  if (!green) {
    out.notes.push(`no green run of this job in the last ${HISTORY_MAX_AGE_DAYS} days${base ? ` on ${base}` : ''}${q.headBranch && q.headBranch !== base ? ` or ${q.headBranch}` : ''}`);
    return;
  }
  out.lastGreen = { run: runRef(green) };
  // Pre-existing is decided by the base's own failing log: the green run's log would not change that.
  if (out.baseFailing) return;
  // 5. A flip first (its jobs list, then its log): flaky decides more than the green log's new lines do.
  if (flipped && base && budget.left > 1) {
    const job = await jobIn(flipped);
    if (job?.conclusion === 'failure') out.baseFlip = { failed: runRef(flipped), jobId: job.id, passed: runRef(green), branch: base };
  }
  // 6. The same job in the green run (its log is opened later, within the same budget).
  if (budget.left > 1 + (out.baseFlip ? 1 : 0)) {
    const job = await jobIn(green);
    if (job && job.conclusion === 'success') out.lastGreen.jobId = job.id;
    else out.notes.push(`no job named ${JSON.stringify(q.job.slice(0, 80))} passed in the last green run`);
  } else out.notes.push('the last green run\'s log not read: request budget spent');
  // 7. The commits since that green run (compare): the diff prior of a push, or of a PR whose own diff
  //    does not reach the failure. After the requests the logs still need, never instead of them.
  const logsToRead = (out.baseFlip ? 1 : 0) + (out.lastGreen.jobId !== undefined ? 1 : 0);
  if (budget.left > logsToRead) {
    const { route, params } = compareRequest(green.head_sha, q.headSha);
    try {
      const prior = priorFromCompare(green.head_sha, q.headSha, await budget.request<CompareAnswer>(route, { ...ref, ...params }));
      if (prior) out.priorDiff = prior;
    } catch (e) {
      out.notes.push(`the commits since the last green run could not be compared (HTTP ${statusOf(e) ?? '?'})`);
    }
  } else out.notes.push('the commits since the last green run not compared: request budget spent');
}

/** Logs diagnose did not read to the end (a pre-existing decision needs no passing log) must not hold their sockets. */
export function closeHistoryLogs(h: HistoryFound): void {
  for (const s of [h.passingLog?.source, h.facts.baseFailing?.log, h.facts.baseFlip?.failed.log]) if (s && typeof s !== 'string') (s as Readable).destroy();
}
