import type { Placement } from '../report/placement.js';
import { type GitHub, type RepoRef } from './client.js';
import { redactingGitHub } from '../safety/redact-outgoing.js';

/** The name of Redline's own check run: the App ignores check runs with this name (its own). */
export const CHECK_NAME = 'Redline';
/** GitHub's cap on check-run output.summary and output.text. */
export const CHECK_TEXT_MAX = 65_535;

export interface CheckRunInput {
  headSha: string;
  /** One check run per failing job: found again by this id on a re-run. */
  externalId: string;
  title: string;
  summary: string;
  /** Tier 3 puts the pin here as an annotation. */
  placement: Placement;
  message: string;
  detailsUrl?: string;
}

const cap = (s: string, n: number): string => (s.length <= n ? s : `${s.slice(0, n - 40)}\n\n_(cut to fit GitHub's limit)_`);

/**
 * Creates or updates the `Redline` check run of this job on the head SHA. Its conclusion is always
 * `neutral`: the diagnosis is information; the build's own checks decide red or green.
 */
export async function upsertCheckRun(gh: GitHub, ref: RepoRef, input: CheckRunInput): Promise<number> {
  gh = redactingGitHub(gh); // what leaves the process is redacted (src/safety/redact-outgoing.ts)
  const p = input.placement;
  const annotations =
    p.tier === 'annotation'
      ? [{ path: p.file, start_line: p.line, end_line: p.line, annotation_level: 'failure' as const, title: 'Redline', message: cap(input.message, 64_000) }]
      : [];
  const body = {
    name: CHECK_NAME,
    head_sha: input.headSha,
    external_id: input.externalId,
    status: 'completed' as const,
    conclusion: 'neutral' as const,
    completed_at: new Date().toISOString(),
    ...(input.detailsUrl ? { details_url: input.detailsUrl } : {}),
    output: { title: cap(input.title, 200), summary: cap(input.summary, CHECK_TEXT_MAX), annotations },
  };
  const { data } = await gh.request('GET /repos/{owner}/{repo}/commits/{ref}/check-runs', { ...ref, ref: input.headSha, check_name: CHECK_NAME, per_page: 100 });
  const existing = (data as { check_runs: { id: number; external_id?: string | null }[] }).check_runs.find((c) => c.external_id === input.externalId);
  if (existing) {
    const { head_sha: _sha, ...update } = body;
    await gh.request('PATCH /repos/{owner}/{repo}/check-runs/{check_run_id}', { ...ref, check_run_id: existing.id, ...update });
    return existing.id;
  }
  const created = await gh.request('POST /repos/{owner}/{repo}/check-runs', { ...ref, ...body });
  return (created.data as { id: number }).id;
}
