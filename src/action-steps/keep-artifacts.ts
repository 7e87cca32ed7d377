import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import type { Readable } from 'node:stream';
import type { LogSource } from '../log/open-log.js';
import type { Diagnosis } from '../types.js';
import type { DiagnoseTrace } from '../diagnose.js';
import { writeArtifacts } from '../report/artifacts.js';
import { uploadDiagnosisArtifacts } from '../github/upload-artifacts.js';
import type { RunnerOutput } from './runner-output.js';

/** A file-system-safe slug of a job name, for folder and artifact names. */
export function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 80) || 'job';
}

/** The folder this run's artifacts are written to (the runner's temp folder, else the OS one). */
export function artifactRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.RUNNER_TEMP || tmpdir(), 'redline');
}

/**
 * A log as a file: the raw log is one of the artifacts, and a file also takes diagnose's fast path for
 * big logs. A stream (a job log from the API) is saved first; a path is used as it is.
 */
export async function logAsFile(source: LogSource, name: string): Promise<string> {
  if (typeof source === 'string') return source;
  const dir = join(artifactRoot(), 'logs');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${slug(name)}.log`);
  await pipeline(source as Readable, createWriteStream(path));
  return path;
}

/**
 * Writes the raw log, the cleaned log, the diagnosis and the trace (redacted, as the CLI's --artifacts
 * does) and uploads them with @actions/artifact. Returns the artifact's URL for the comment and the
 * summary, or nothing: an artifact that cannot be stored never fails the step, it is only said.
 */
export async function keepArtifacts(job: string, log: string, diagnosis: Diagnosis, trace: DiagnoseTrace, out: RunnerOutput, runAttempt: string): Promise<string | undefined> {
  try {
    const dir = await writeArtifacts(join(artifactRoot(), slug(job)), { log, diagnosis, trace });
    const names = ['raw.log', 'cleaned.log', 'diagnosis.json', 'trace.json'] as const;
    const files = Object.fromEntries(names.map((n) => [n, join(dir, n)])) as Record<(typeof names)[number], string>;
    const up = await uploadDiagnosisArtifacts({ name: `redline-${slug(job)}-${runAttempt || '1'}`, files });
    if ('skipped' in up) {
      out.info(`Redline: artifacts kept in ${dir} (not uploaded: ${up.skipped})`);
      return undefined;
    }
    return up.url;
  } catch (e) {
    out.warn(`Redline could not keep the artifacts of ${job.slice(0, 200)}: ${(e as Error).message.split('\n')[0]}`);
    return undefined;
  }
}
