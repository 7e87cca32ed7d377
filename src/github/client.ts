/**
 * The GitHub edge as the rest of src/github sees it: only `request`, so the App (Probot's Octokit),
 * the Action (@octokit/rest) and tests (a plain Octokit against a local server) all fit.
 */
import type { ProbotOctokit } from 'probot';
import { Readable } from 'node:stream';
import { BadRefError, DownloadError } from './errors.js';
import { MAX_PAGES } from './limits.js';

export type GitHub = Pick<ProbotOctokit, 'request'>;

/** A repository as the REST paths name it. */
export interface RepoRef {
  owner: string;
  repo: string;
}

/** Accounts: letters, digits and single hyphens inside (GHES also allows `_` and `.`); never a leading dot or hyphen. */
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})$/;
/** Repositories may start with a dot (`.github`, `.dotfiles`); never `.`/`..` or a `..` inside (paths). */
const REPO = /^[A-Za-z0-9._-]{1,100}$/;
const SHA = /^[0-9a-f]{40}$/;

/** Throws BadRefError unless owner, repo and sha look like GitHub's (they end up in file paths and URLs). */
export function checkRef(ref: RepoRef, sha?: string): void {
  if (!OWNER.test(ref.owner) || ref.owner.includes('..')) throw new BadRefError(ref.owner, 'owner');
  if (!REPO.test(ref.repo) || ref.repo.includes('..') || ref.repo === '.') throw new BadRefError(ref.repo, 'repo');
  if (sha !== undefined && !SHA.test(sha)) throw new BadRefError(sha, 'sha');
}

/** The HTTP status of an Octokit RequestError (or undefined for anything else). */
export function statusOf(e: unknown): number | undefined {
  const s = (e as { status?: unknown } | null)?.status;
  return typeof s === 'number' ? s : undefined;
}

/** Error codes of a connection that dropped mid-request (Node's net and undici's socket errors). */
const DROPPED_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const DROPPED_TEXT = /socket hang up|other side closed|ECONNRESET|fetch failed/i;

/**
 * Whether the request died on the network without an answer (the connection was reset or closed,
 * or fetch could not get one at all): the server may or may not have acted on it. Octokit reports this as status 500 without a response ("other side
 * closed"); a bare fetch as a TypeError "fetch failed"; node:http as ECONNRESET "socket hang up".
 * The cause chain is walked because each layer wraps the one below.
 */
export function isConnectionDropped(e: unknown): boolean {
  let cur = e as { code?: unknown; message?: unknown; cause?: unknown; response?: unknown } | null | undefined;
  if (cur?.response) return false; // GitHub answered: whatever it is, it is not a dropped connection
  for (let depth = 0; cur && depth < 5; depth++, cur = cur.cause as typeof cur) {
    if (typeof cur.code === 'string' && DROPPED_CODES.has(cur.code)) return true;
    if (typeof cur.message === 'string' && DROPPED_TEXT.test(cur.message)) return true;
  }
  return false;
}

/** Every item of a list endpoint, 100 per page, at most MAX_PAGES pages (say so in the caller if it matters). */
export async function listAll<T>(gh: GitHub, route: string, params: Record<string, unknown>, pick: (data: unknown) => T[] = (d) => d as T[]): Promise<T[]> {
  const out: T[] = [];
  for (let page = 1; page <= MAX_PAGES; page++) {
    const { data } = await gh.request(route, { ...params, per_page: 100, page });
    const items = pick(data);
    out.push(...items);
    if (items.length < 100) break;
  }
  return out;
}

/**
 * Asks GitHub for a download link (a 302 to a short-lived URL) without following it, then fetches the
 * link WITHOUT our Authorization header (the target is another host: sending the token would leak it).
 * A server that answers 200 directly (some GHES setups) is read as is. Returns the body as a stream.
 */
export async function openDownload(gh: GitHub, route: string, params: Record<string, unknown>, what: string): Promise<Readable> {
  const res = await gh.request(route, { ...params, request: { redirect: 'manual', parseSuccessResponseBody: false } });
  const headers = res.headers as Record<string, string | undefined>;
  if (res.status >= 300 && res.status < 400) {
    const location = headers.location;
    if (!location) throw new DownloadError(`${what} (redirect without a Location)`, res.status);
    const body = await fetch(location, { redirect: 'follow' });
    if (!body.ok || !body.body) {
      await body.body?.cancel().catch(() => {});
      throw new DownloadError(what, body.status);
    }
    return Readable.fromWeb(body.body as import('node:stream/web').ReadableStream);
  }
  const data = res.data as unknown;
  if (data && typeof (data as ReadableStream).getReader === 'function') return Readable.fromWeb(data as import('node:stream/web').ReadableStream);
  if (typeof data === 'string' || data instanceof ArrayBuffer) return Readable.from([Buffer.from(data as string)]);
  throw new DownloadError(`${what} (unexpected answer)`, res.status);
}
