/**
 * The Action's work once the door has read the context: which logs (the teed file, or the failed jobs
 * of this run through the API — or, in mode 3, of the run that triggered this `workflow_run` one), the
 * config, the PR's hunks, then diagnose → report for each log.
 */
import { readFileSync } from 'node:fs';
import { Octokit } from '@octokit/rest';
import { defaultConfig, llmMode, parseConfigText, type Config } from '../config.js';
import { diagnoseWithTrace } from '../diagnose.js';
import { type GitHub, listAll } from '../github/client.js';
import { openJobLog } from '../github/logs.js';
import { resilient } from '../github/resilience.js';
import { pullRequestDiff } from '../github/pull-request.js';
import { dropIgnored, jobSelected, readRepoSettings } from '../github/repo-config.js';
import { anthropicChatModel } from '../locate/agent/chat-model.js';
import type { LogSource } from '../log/open-log.js';
import type { ActionContext } from './context.js';
import { reportDiagnosis } from './report.js';
import { keepArtifacts, logAsFile } from './keep-artifacts.js';
import { appendSummary, setOutputs, type RunnerOutput } from './runner-output.js';
import { checkoutHead, skipReason, triggeringRunContext } from './workflow-run.js';
import { closeHistoryLogs, findHistory, type HistoryFound } from '../github/history.js';

interface LogToDiagnose {
  /** "<workflow> / <job>": the fingerprint family, the same the App uses for this job. */
  name: string;
  url?: string;
  open: () => Promise<LogSource>;
  /** The job's own name in its run, for its history (mode 1 and 3: the jobs list gives it). */
  job?: string;
}

interface RunJob {
  id: number;
  name: string;
  status?: string;
  runner_name?: string | null;
  workflow_name?: string | null;
  conclusion: string | null;
  html_url?: string | null;
}

/**
 * The Action's client: @octokit/rest behind the same fault handling as the App's (src/github/resilience.ts:
 * 5xx and dropped connections retried, writes looked up before they are sent again, rate limits waited
 * out within bounds). A 403 for a missing permission is not a rate limit and is not retried.
 */
export function actionOctokit(ctx: ActionContext): GitHub {
  const octokit = new Octokit({ auth: ctx.token || undefined, baseUrl: ctx.apiUrl, userAgent: 'redline-action', log: { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} } });
  return resilient(octokit as unknown as GitHub);
}

/** The `config` input's file in the checkout, else `.github/redline.yml` at the base branch (API); defaults on any trouble. */
async function loadConfig(ctx: ActionContext, gh: GitHub, out: RunnerOutput): Promise<Config> {
  try {
    if (ctx.configPath) return parseConfigText(readFileSync(ctx.configPath, 'utf8'), ctx.configPath);
    return (await readRepoSettings(gh, ctx.ref, ctx.pr?.baseRef ?? '')).config;
  } catch (e) {
    out.warn(`Redline: could not read the config (${(e as Error).message}); using the defaults`);
    return defaultConfig();
  }
}

/** Mode 1: the failed jobs of this run (latest attempt) that the `jobs` input (or the config) selects. */
async function failedJobs(ctx: ActionContext, gh: GitHub, config: Config): Promise<LogToDiagnose[]> {
  const jobs = await listAll<RunJob>(gh, 'GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...ctx.ref, run_id: ctx.runId }, (d) => (d as { jobs: RunJob[] }).jobs);
  const select = ctx.jobs.length ? { jobs: ctx.jobs } : config;
  return jobs
    .filter((j) => j.conclusion === 'failure' && jobSelected(select, j.workflow_name, j.name))
    .map((j) => ({
      name: `${j.workflow_name ?? ''} / ${j.name}`,
      ...(j.html_url ? { url: j.html_url } : {}),
      open: () => openJobLog(gh, ctx.ref, j.id),
      job: j.name,
    }));
}

/**
 * Mode 2 (a teed log file): this step's own job in the run's jobs list, by the runner it runs on
 * (RUNNER_NAME), else by its workflow key (GITHUB_JOB, the name when the job sets none), else the only
 * job still running. Its name is what the job's other runs are matched on. One request, of the history's.
 */
async function ownJobName(ctx: ActionContext, gh: GitHub): Promise<string | undefined> {
  const { data } = await gh.request('GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs', { ...ctx.ref, run_id: ctx.runId, per_page: 100 });
  const running = (data as { jobs: RunJob[] }).jobs.filter((j) => j.status !== 'completed');
  const mine = (ctx.runnerName ? running.find((j) => j.runner_name === ctx.runnerName) : undefined) ?? running.find((j) => j.name === ctx.jobKey) ?? (running.length === 1 ? running[0] : undefined);
  return mine?.name;
}

/** The job's history through the API (github/history.ts): its name from the jobs list (mode 1 and 3) or found for this step (mode 2). */
async function actionHistory(ctx: ActionContext, gh: GitHub, log: LogToDiagnose): Promise<HistoryFound | undefined> {
  if (!ctx.runId) return undefined;
  let job = log.job;
  let spent = 0;
  if (!job) {
    spent = 1;
    job = await ownJobName(ctx, gh).catch(() => undefined);
    if (!job) return { facts: { notes: ['history skipped: this step\'s job was not found among the run\'s running jobs'] }, requests: spent };
  }
  const run = ctx.workflowRun;
  return findHistory(gh, {
    ref: ctx.ref,
    job,
    runId: ctx.runId,
    ...(run ? (run.runAttempt ? { runAttempt: run.runAttempt } : {}) : ctx.runAttempt ? { runAttempt: ctx.runAttempt } : {}),
    headSha: ctx.sha,
    ...(run ? { headBranch: run.headBranch } : ctx.headBranch ? { headBranch: ctx.headBranch } : {}),
    ...(ctx.pr?.baseRef || ctx.defaultBranch ? { baseBranch: ctx.pr?.baseRef || ctx.defaultBranch! } : {}),
    // Mode 3: the triggering run's workflow (this workflow's file is another one).
    ...(run ? (run.workflowId !== undefined ? { workflow: run.workflowId } : {}) : ctx.workflowFile ? { workflow: ctx.workflowFile } : {}),
    ...(spent ? { spent } : {}),
  });
}

export async function runAction(ctx: ActionContext, out: RunnerOutput, gh: GitHub = actionOctokit(ctx)): Promise<void> {
  const run = ctx.workflowRun;
  if (run) {
    // Mode 3: the triggering run (another run), its PR by head SHA; the code comes later, as a tarball.
    const skip = skipReason(run);
    if (skip) {
      out.info(`Redline: nothing to diagnose: ${skip}`);
      await appendSummary(`### Redline\n\nNothing to diagnose: ${skip}.\n`);
      setOutputs({ status: 'skipped' });
      return;
    }
    if (run.ignoredInputs.length) out.warn(`Redline: ${run.ignoredInputs.join(' and ')} ignored in a workflow_run workflow (the logs come through the API, the config from the base branch)`);
    ctx = await triggeringRunContext(ctx, gh, run);
  }
  const config = await loadConfig(ctx, gh, out);
  if (!config.enabled) {
    out.info('Redline is disabled by the config (enabled: false)');
    setOutputs({ status: 'skipped' });
    return;
  }
  const logs: LogToDiagnose[] = ctx.logFile ? [{ name: ctx.jobName, open: async () => ctx.logFile! }] : await failedJobs(ctx, gh, config);
  if (!logs.length) {
    out.info('Redline: no failed job to diagnose in this run');
    await appendSummary('### Redline\n\nNo failed job to diagnose in this run.\n');
    setOutputs({ status: 'no-failed-jobs' });
    return;
  }
  // Mode 3: the repository at the head SHA, downloaded as data (never run), instead of GITHUB_WORKSPACE.
  if (run) ctx = { ...ctx, workspace: await checkoutHead(ctx, gh) };
  // The PR's hunks decide the placement; reading them needs no write access. Without them: annotation tier.
  const diff = ctx.pr ? await pullRequestDiff(gh, ctx.ref, ctx.pr.number).catch(() => undefined) : undefined;
  const key = ctx.anthropicApiKey;
  const llm = key && llmMode({ flag: undefined, apiKey: key, config: config.llm }).on ? { model: anthropicChatModel({ apiKey: key }), config: config.llm } : undefined;
  const target = { ctx, gh, out, mode: ctx.comment ?? config.comment, state: { writeRefused: false }, ...(diff ? { diff } : {}) };

  let first: Parameters<typeof setOutputs>[0] | undefined;
  for (const log of logs) {
    try {
      const path = await logAsFile(await log.open(), log.name);
      const history = await actionHistory(ctx, gh, log);
      const { diagnosis, trace } = await diagnoseWithTrace({
        log: path,
        repo: ctx.workspace,
        ...(diff ? { diff } : {}),
        ...(llm ? { llm } : {}),
        ...(history ? { history: history.facts, jobName: log.name, ...(history.passingLog ? { passingLog: { ...history.passingLog, jobName: log.name } } : {}), ...(history.priorDiff ? { priorDiff: history.priorDiff } : {}) } : {}),
      }).finally(() => history && closeHistoryLogs(history));
      const d = dropIgnored(diagnosis, config.ignorePaths);
      const artifactsUrl = await keepArtifacts(log.name, path, diagnosis, trace, out, process.env.GITHUB_RUN_ATTEMPT ?? '1');
      const { commentUrl } = await reportDiagnosis(d, { ...log, ...(artifactsUrl ? { artifactsUrl } : {}) }, target);
      const top = d.status === 'located' ? d.findings[0] : undefined;
      first ??= { status: d.status, category: d.category, ...(top ? { file: top.file, line: top.line } : {}), ...(commentUrl ? { commentUrl } : {}) };
    } catch (e) {
      out.warn(`Redline could not diagnose ${log.name.slice(0, 200)}: ${(e as Error).message}`);
    }
  }
  setOutputs(first ?? { status: 'error' });
}
