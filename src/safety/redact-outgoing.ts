/**
 * Redaction of everything that leaves the process, in one place (issues 7, 13). One redactor
 * (redact.ts → find-secrets.ts: our shapes, gitleaks' default rules, secretlint's preset; every view,
 * every window); the sync `redactSecrets` and the async helpers here are the same finder. One choke
 * point per channel:
 *
 * - GitHub: `redactRequestParams` on every write request (the App's `resilient` client and `publish`,
 *   through which the Action writes): every string of the body, route parameters aside.
 * - The Action's runner: the job summary (`appendSummary`) and the text report.ts prints or annotates.
 * - Artifacts: `writeArtifacts` (CLI and Action) and the service's artifact store; raw.log is the log
 *   as received, redacted (`redactFile`).
 * - Model requests and transcripts: src/locate/agent; the CLI's stdout and stderr; the status page and
 *   dead letters (queue.ts `errorLine`).
 */
import { createReadStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import type { GitHub } from '../github/client.js';
import { redactSecretsDeep, type Redacted } from './redact.js';

/** The one redactor; placeholders kept; the number of lines never changes. */
export function redactOutgoing(text: string): Promise<Redacted> {
  return redactSecretsDeep(text);
}

/** `redactOutgoing`, just the text. */
export async function redactedText(text: string): Promise<string> {
  return (await redactSecretsDeep(text)).text;
}

/** Lines redacted as one text (a multi-line secret is seen whole); as many lines back. */
export async function redactOutgoingLines(lines: readonly string[]): Promise<string[]> {
  if (lines.length === 0) return [];
  const out = (await redactSecretsDeep(lines.join('\n'))).text.split('\n');
  if (out.length === lines.length) return out;
  return Promise.all(lines.map(redactedText)); // cannot happen (newlines are kept); never misalign
}

/**
 * A copy of `value` with every string in it redacted (objects and arrays walked; other values kept).
 * Keys in `skip` are left as they are at the top level (route parameters, request options).
 */
/** Anchors inside a body (a review comment's or an annotation's file) stay as they are. */
const NESTED_SKIP: ReadonlySet<string> = new Set(['path']);

export async function redactDeepValue<T>(value: T, skip: ReadonlySet<string> = new Set(), depth = 0): Promise<T> {
  if (typeof value === 'string') return (await redactedText(value)) as T;
  if (depth > 32 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return (await Promise.all(value.map((v) => redactDeepValue(v, NESTED_SKIP, depth + 1)))) as T;
  if (Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null) return value; // Buffers, streams
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = skip.has(k) ? v : await redactDeepValue(v, NESTED_SKIP, depth + 1);
  return out as T;
}

/** Never redacted: request options, and identifiers GitHub resolves (changing them would misdirect the write). */
const ROUTING = ['request', 'headers', 'mediaType', 'baseUrl', 'url', 'method', 'owner', 'repo', 'head_sha', 'commit_id', 'sha', 'ref', 'path', 'external_id'];

export const isWriteRoute = (route: string): boolean => {
  const method = route.split(' ')[0]!.toUpperCase();
  return method !== 'GET' && method !== 'HEAD';
};

/** The parameters of a write request with every string of its body redacted; reads are returned as they are. */
export async function redactRequestParams<P extends Record<string, unknown>>(route: string, params: P): Promise<P> {
  if (!isWriteRoute(route)) return params;
  const skip = new Set(ROUTING);
  for (const m of route.matchAll(/\{(\w+)\}/g)) skip.add(m[1]!);
  return redactDeepValue(params, skip);
}

const REDACTING = new WeakSet<object>();

/** Marks a client whose writes are already redacted (so wrapping it again costs nothing). */
export function markRedacting<G extends object>(gh: G): G {
  REDACTING.add(gh);
  return gh;
}

/** `gh` whose every write request has its body redacted before it is sent. */
export function redactingGitHub(gh: GitHub): GitHub {
  if (REDACTING.has(gh)) return gh;
  const request = async (route: string, params: Record<string, unknown> = {}): Promise<unknown> => gh.request(route, (await redactRequestParams(route, params)) as never);
  return markRedacting({ request: request as unknown as GitHub['request'] });
}

/** Chunks of about this many bytes (cut at a newline) when a file is redacted in place. */
const FILE_CHUNK = 4 * 1024 * 1024;

/**
 * Copies `from` to `to` redacted, a few MB at a time (cut at line ends, so memory stays bounded on a
 * huge log). `from` may be `to`: the copy goes to a temporary file first.
 */
export async function redactFile(from: string, to: string): Promise<void> {
  const tmp = `${to}.redacting-${process.pid}`;
  const out = await open(tmp, 'w');
  try {
    let carry = '';
    for await (const chunk of createReadStream(from, { encoding: 'utf8', highWaterMark: 1024 * 1024 })) {
      carry += chunk as string;
      if (carry.length < FILE_CHUNK) continue;
      const cut = carry.lastIndexOf('\n');
      if (cut === -1 && carry.length < 4 * FILE_CHUNK) continue; // wait for a line end, within reason
      const at = cut === -1 ? carry.length : cut + 1;
      await out.write(await redactedText(carry.slice(0, at)));
      carry = carry.slice(at);
    }
    if (carry) await out.write(await redactedText(carry));
    await out.close();
    await rename(tmp, to);
  } catch (e) {
    await out.close().catch(() => {});
    await rm(tmp, { force: true });
    throw e;
  }
}
