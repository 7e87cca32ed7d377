/**
 * `.github/redline.yml` as the App reads it: through the contents API at the BASE branch (a fork PR
 * edits its head, never its base, so it cannot turn Redline off, widen its reach or change its
 * voice), validated by the one schema in src/config.ts. A malformed file is said once, in a `Redline`
 * check run of its own, and the diagnosis goes on with the defaults.
 */
import { ConfigError, defaultConfig, parseConfigText, type Config } from '../config.js';
import { matchesAny, pathIgnored } from '../glob-match.js';
import { inlineCode } from '../safety/sanitize.js';
import type { Diagnosis } from '../types.js';
import { CHECK_NAME, CHECK_TEXT_MAX } from './check-run.js';
import { type GitHub, type RepoRef, statusOf } from './client.js';

export const CONFIG_PATH = '.github/redline.yml';
/** Bytes of config we read at most: a settings file is a few hundred bytes; more is a mistake or hostile. */
export { MAX_CONFIG_BYTES } from '../limits.js';
import { MAX_CONFIG_BYTES } from '../limits.js';
/** The external id of the check run that reports a malformed config (one per head SHA, whatever the jobs). */
export const CONFIG_CHECK_ID = 'redline:config';

export interface RepoSettings {
  config: Config;
  /** Set when the file was there but unusable: `config` is then the defaults. */
  error?: ConfigError;
  /** The branch it was read from. */
  ref: string;
}

/**
 * Reads the config at `ref` (the PR's base branch, or the default branch for pushes). No file: the
 * defaults. Bad YAML or values: the defaults plus the ConfigError to report. Other API errors throw.
 */
export async function readRepoSettings(gh: GitHub, ref: RepoRef, branch: string): Promise<RepoSettings> {
  let text: string;
  try {
    // No branch: GitHub reads the default branch.
    const { data } = await gh.request('GET /repos/{owner}/{repo}/contents/{path}', { ...ref, path: CONFIG_PATH, ...(branch ? { ref: branch } : {}) });
    const file = data as { type?: string; encoding?: string; content?: string; size?: number };
    if (Array.isArray(data) || file.type !== 'file') return { config: defaultConfig(), ref: branch, error: new ConfigError(CONFIG_PATH, 'is not a file') };
    if ((file.size ?? 0) > MAX_CONFIG_BYTES || file.encoding !== 'base64' || typeof file.content !== 'string') {
      return { config: defaultConfig(), ref: branch, error: new ConfigError(CONFIG_PATH, `is larger than ${MAX_CONFIG_BYTES / 1024} KB or not readable; keep it to a few settings`) };
    }
    text = Buffer.from(file.content, 'base64').toString('utf8');
  } catch (e) {
    if (statusOf(e) === 404) return { config: defaultConfig(), ref: branch };
    throw e;
  }
  try {
    return { config: parseConfigText(text, CONFIG_PATH), ref: branch };
  } catch (e) {
    if (e instanceof ConfigError) return { config: defaultConfig(), error: e, ref: branch };
    throw e;
  }
}

/** Whether the config selects this job: `jobs` unset selects all; a glob matches the job name or "workflow / job". */
export function jobSelected(config: Pick<Config, 'jobs'>, workflow: string | null | undefined, job: string): boolean {
  if (!config.jobs) return true;
  const names = workflow ? [job, `${workflow} / ${job}`] : [job];
  return names.some((n) => matchesAny(n, config.jobs!, { path: false }));
}

/** Whether failed jobs on `branch` are diagnosed without a PR (`branches`; default none). */
export function branchSelected(config: Pick<Config, 'branches'>, branch: string | null | undefined): boolean {
  return !!branch && matchesAny(branch, config.branches, { path: false });
}

/** The diagnosis without findings in `ignorePaths`; when none is left, it no longer pins a location. */
export function dropIgnored(d: Diagnosis, ignore: readonly string[]): Diagnosis {
  if (!ignore.length || !d.findings.length) return d;
  const findings = d.findings.filter((f) => !pathIgnored(f.file, ignore));
  if (findings.length === d.findings.length) return d;
  if (findings.length) return { ...d, findings };
  return {
    ...d,
    status: 'no-location',
    findings: [],
    summary: `${d.summary.replace(/\s+$/, '')} (Every location Redline found is in a path that ${CONFIG_PATH} ignores, so nothing is pinned.)`,
  };
}

/**
 * Says once, in a `Redline` check run on the head SHA (its own, by external id, so several failing
 * jobs of one commit make one message), that the config could not be used and the defaults ran.
 */
export async function reportConfigError(gh: GitHub, ref: RepoRef, headSha: string, s: RepoSettings): Promise<void> {
  if (!s.error) return;
  // The file's text is the repository's, not ours: shown as inert code, cut.
  const what = s.error.message.slice(0, 2_000);
  const summary = [
    `Redline could not use ${inlineCode(CONFIG_PATH)}${s.ref ? ` on ${inlineCode(s.ref.slice(0, 200))}` : ''} and ran with the default settings.`,
    '',
    '```text',
    what.replace(/`{3,}/g, '``'),
    '```',
    '',
    'Fix the file on that branch; the next failed build uses it.',
  ].join('\n');
  const body = {
    name: CHECK_NAME,
    external_id: CONFIG_CHECK_ID,
    status: 'completed' as const,
    conclusion: 'neutral' as const,
    completed_at: new Date().toISOString(),
    output: { title: `${CONFIG_PATH} is invalid: defaults used`, summary: summary.slice(0, CHECK_TEXT_MAX) },
  };
  const { data } = await gh.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...ref, ref: headSha, check_name: CHECK_NAME, per_page: 100 });
  const existing = (data as { check_runs: { id: number; external_id?: string | null; output?: { summary?: string | null } }[] }).check_runs.find((c) => c.external_id === CONFIG_CHECK_ID);
  if (existing?.output?.summary === body.output.summary) return;
  if (existing) await gh.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { ...ref, check_run_id: existing.id, ...body });
  else await gh.request('POST /repos/{owner}/{repo}/check-runs', { ...ref, head_sha: headSha, ...body });
}

/** What the config lets a failed job do: go on (with these settings) or stop here, and why. */
export type Gate = { go: true; settings: RepoSettings } | { go: false; reason: 'disabled' | 'job-not-selected' | 'no-open-pr' };

export interface GateJob {
  ref: RepoRef;
  /** "<workflow> / <job>" (or a check run's name): `jobs` globs match it or the part after the workflow. */
  jobName: string;
  headSha: string;
  /** The branch the job ran on (a push without a PR is diagnosed when `branches` selects it). */
  headBranch?: string | null;
  /** The repository's default branch: the config's branch when there is no PR. */
  defaultBranch?: string;
}

/**
 * Reads the config at the PR's base branch (the default branch without a PR) and decides: disabled,
 * a job the config does not select, a push on a branch it does not select → stop (nothing written).
 * A malformed config is reported once in its check run and the defaults go on.
 */
export async function gateJob(gh: GitHub, job: GateJob, pr: { baseRef?: string } | undefined): Promise<Gate> {
  const branch = pr?.baseRef ?? job.defaultBranch;
  const settings = await readRepoSettings(gh, job.ref, branch ?? '');
  const { config } = settings;
  if (!config.enabled) return { go: false, reason: 'disabled' };
  const i = job.jobName.indexOf(' / ');
  const [workflow, name] = i >= 0 ? [job.jobName.slice(0, i), job.jobName.slice(i + 3)] : [undefined, job.jobName];
  if (!jobSelected(config, workflow, name)) return { go: false, reason: 'job-not-selected' };
  if (!pr && !branchSelected(config, job.headBranch)) return { go: false, reason: 'no-open-pr' };
  if (settings.error) await reportConfigError(gh, job.ref, job.headSha, settings);
  return { go: true, settings };
}
