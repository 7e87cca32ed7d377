import { createHash } from 'node:crypto';
import type { Diagnosis } from '../types.js';

/**
 * The hidden marker in every comment Redline posts: `<!-- redline:fp=<family>.<failure> -->`.
 * `family` is the job (repository + workflow + job name): a re-run or a different failure of the
 * same job finds and edits the same comment. `failure` is the pin (file + message, not the line
 * number, so an edit above it does not make it "new"): two jobs failing the same way say it once.
 */
export interface Fingerprint {
  family: string;
  failure: string;
}

/** Which job a failure belongs to. */
export interface FingerprintSource {
  /** owner/repo */
  repo: string;
  /** Workflow name and job name, e.g. "CI / build (ubuntu, 20)": stable across re-runs, unlike job ids. */
  job: string;
}

const hash = (...parts: string[]): string => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);

/** Digits, hex ids and paths in temp folders change between runs of the same failure: fold them. */
function normaliseMessage(message: string): string {
  return message
    .replace(/\b[0-9a-f]{7,}\b/gi, 'H')
    .replace(/\d+(\.\d+)?(ms|s)\b/g, 'T')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 500);
}

/** The family part alone: which job, whatever its failure (the check run of a job whose log is gone). */
export function familyOf(src: FingerprintSource): string {
  return hash(src.repo.toLowerCase(), src.job);
}

/** The fingerprint of one diagnosis of one job; stable across re-runs of the same failure. */
export function fingerprintOf(src: FingerprintSource, d: Diagnosis): Fingerprint {
  const family = familyOf(src);
  const top = d.status === 'located' ? d.findings[0] : undefined;
  const failure = top ? hash(top.file, normaliseMessage(top.message)) : hash('no-location', d.category, d.failingStep?.name ?? '');
  return { family, failure };
}

/** The marker text as it is embedded in a body (also what renderMarkdown's `fingerprint` option takes). */
export function formatFingerprint(fp: Fingerprint): string {
  return `${fp.family}.${fp.failure}`;
}

/** The full HTML comment, for bodies not made by renderMarkdown. */
export function fingerprintMarker(fp: Fingerprint): string {
  return `<!-- redline:fp=${formatFingerprint(fp)} -->`;
}

const MARKER = /<!-- redline:fp=([0-9a-f]{16})\.([0-9a-f]{16}) -->/;

/** The fingerprint in a comment body, or undefined when it carries none (or a malformed one). */
export function parseFingerprint(body: string | null | undefined): Fingerprint | undefined {
  const m = body ? MARKER.exec(body) : null;
  return m ? { family: m[1]!, failure: m[2]! } : undefined;
}
