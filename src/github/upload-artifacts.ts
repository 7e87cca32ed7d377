import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { DefaultArtifactClient } from '@actions/artifact';

/** The files `writeArtifacts` (src/report/artifacts.ts) writes, by their name inside the artifact. */
export type DiagnosisArtifactName = 'raw.log' | 'cleaned.log' | 'diagnosis.json' | 'trace.json';

export interface UploadDiagnosisArtifactsRequest {
  /** The artifact's name; unique within the workflow run (the service refuses a second one with 409). */
  name: string;
  /** Where each file is on disk. Uploaded under the key's name, at the root of the artifact's zip. */
  files: Readonly<Record<DiagnosisArtifactName, string>>;
  /** Days before the artifact expires; capped by the repository's setting. Default: the repository's. */
  retentionDays?: number;
}

export type UploadDiagnosisArtifactsResult =
  /** Uploaded. `url` is the artifact's page, when the run's coordinates are in the environment. */
  | { id: number; url?: string; size?: number; digest?: string }
  /** Not uploaded, and why (one line). Never thrown: an artifact must not fail the build. */
  | { skipped: string };

export const NOT_IN_ACTIONS = 'not running in GitHub Actions';

const ORDER: readonly DiagnosisArtifactName[] = ['raw.log', 'cleaned.log', 'diagnosis.json', 'trace.json'];

/**
 * Uploads the diagnosis files (already written and redacted by `writeArtifacts`) as one workflow artifact
 * with `@actions/artifact`, which reads the runner's environment: `ACTIONS_RUNTIME_TOKEN` (a JWT whose
 * `scp` claim names the run and job), `ACTIONS_RESULTS_URL` (the artifact service) and `GITHUB_SERVER_URL`
 * (GHES is not supported by the v2 service). The link is built from `GITHUB_SERVER_URL`,
 * `GITHUB_REPOSITORY` and `GITHUB_RUN_ID`.
 *
 * Outside Actions (no runtime token) and on any failure it answers `{ skipped }` rather than throwing.
 * Note that the client retries a 5xx from the service 5 times with backoff (about half a minute) before
 * giving up.
 */
export async function uploadDiagnosisArtifacts(req: UploadDiagnosisArtifactsRequest): Promise<UploadDiagnosisArtifactsResult> {
  if (!process.env['ACTIONS_RUNTIME_TOKEN']) return { skipped: NOT_IN_ACTIONS };
  let staged: string | undefined;
  try {
    const paths = ORDER.map((n) => resolve(req.files[n]));
    let root = dirname(paths[0]!);
    // The zip's entries are the paths relative to the root directory: when the files are not already
    // `<dir>/<key>` (as writeArtifacts leaves them), copy them under their keys into a scratch directory.
    if (!ORDER.every((n, i) => basename(paths[i]!) === n && dirname(paths[i]!) === root)) {
      staged = await mkdtemp(join(process.env['RUNNER_TEMP'] || tmpdir(), 'redline-artifact-'));
      for (const [i, n] of ORDER.entries()) await copyFile(paths[i]!, join(staged, n));
      root = staged;
    }
    const files = ORDER.map((n) => join(root, n));
    const res = await new DefaultArtifactClient().uploadArtifact(req.name, files, root, {
      ...(req.retentionDays !== undefined ? { retentionDays: req.retentionDays } : {}),
    });
    const id = res.id ?? 0;
    const url = id > 0 ? artifactUrl(id) : undefined;
    return {
      id,
      ...(url ? { url } : {}),
      ...(res.size !== undefined ? { size: res.size } : {}),
      ...(res.digest ? { digest: res.digest } : {}),
    };
  } catch (err) {
    return { skipped: oneLine(err) };
  } finally {
    if (staged) await rm(staged, { recursive: true, force: true }).catch(() => {});
  }
}

/** `${GITHUB_SERVER_URL}/${GITHUB_REPOSITORY}/actions/runs/${GITHUB_RUN_ID}/artifacts/${id}`, when known. */
export function artifactUrl(id: number, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const server = (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, '');
  const repo = env['GITHUB_REPOSITORY'];
  const run = env['GITHUB_RUN_ID'];
  if (!repo || !run) return undefined;
  return `${server}/${repo}/actions/runs/${run}/artifacts/${id}`;
}

/** An error as one line, short, with any SAS signature (`sig=`) of a signed URL masked. */
function oneLine(err: unknown): string {
  let msg = err instanceof Error ? err.message || err.name : String(err);
  // Azure's RestError (the blob upload) carries the status apart from the message.
  const e = err as { statusCode?: unknown; code?: unknown } | undefined;
  if (typeof e?.statusCode === 'number') {
    msg = `blob storage answered ${e.statusCode}${typeof e.code === 'string' ? ` ${e.code}` : ''}: ${msg}`;
  }
  const line = msg
    .replace(/([?&]sig=)[^&\s"']+/gi, '$1***')
    .replace(/\s+/g, ' ')
    .trim();
  const out = line || 'artifact upload failed';
  return out.length > 300 ? `${out.slice(0, 299)}…` : out;
}
