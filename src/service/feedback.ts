/**
 * Feedback: every comment invites a 👍 / 👎 reaction, and the App reads the reactions on its own
 * comments when someone looks (the status page), a bounded number of PRs and pages at a time.
 * Counts live in memory behind FeedbackStore, so a shared store can replace it later.
 */
import { parseFingerprint } from '../report/fingerprint.js';
import { type GitHub, statusOf } from '../github/client.js';
import { anyBot, type IsOurs } from '../github/comments.js';

/** A pull request Redline commented on: its comments' reactions are read together. */
export interface PrRef {
  /** owner/repo */
  repo: string;
  installationId: number;
  pr: number;
}

export interface FeedbackCounts {
  up: number;
  down: number;
}

export interface RepoFeedback extends FeedbackCounts {
  /** Redline comments whose reactions are counted. */
  comments: number;
}

export interface FeedbackStore {
  /** Remembers a PR Redline commented on (again: it becomes the newest). */
  track(pr: PrRef): void;
  /** PRs due a fresh read (not read in the last `minAgeMs`), newest first, at most `limit`. */
  due(limit: number, minAgeMs: number): PrRef[];
  /** The reactions just read on the PR's Redline comments, by comment key; `undefined`: the PR is gone. */
  set(pr: PrRef, comments: Map<string, FeedbackCounts> | undefined): void;
  /** Totals per repository. */
  counts(): Record<string, RepoFeedback>;
}

/** The comment text that invites feedback (one short line, in the comment's footer). */
export const FEEDBACK_PROMPT = 'Right pin? React 👍 or 👎';

const keyOf = (p: Pick<PrRef, 'repo' | 'pr'>): string => `${p.repo}#${p.pr}`;

interface Tracked {
  ref: PrRef;
  comments: Map<string, FeedbackCounts>;
  readAt: number;
}

const sum = (comments: Map<string, FeedbackCounts>): RepoFeedback => {
  const r = { up: 0, down: 0, comments: comments.size };
  for (const c of comments.values()) {
    r.up += c.up;
    r.down += c.down;
  }
  return r;
};

/**
 * In-memory counts: the last `capacity` PRs are tracked (re-read on demand); older ones are folded
 * into per-repository totals with the counts they had when they left. A comment no longer found
 * (superseded: it lost its marker) keeps the counts it had.
 */
export class InMemoryFeedbackStore implements FeedbackStore {
  private readonly tracked = new Map<string, Tracked>();
  private readonly retired = new Map<string, RepoFeedback>();

  constructor(
    private readonly capacity = 500,
    private readonly now: () => number = Date.now,
  ) {}

  track(pr: PrRef): void {
    const k = keyOf(pr);
    const had = this.tracked.get(k);
    this.tracked.delete(k);
    // readAt 0: a new comment is read at the next look.
    this.tracked.set(k, { ref: { ...pr }, comments: had?.comments ?? new Map(), readAt: 0 });
    while (this.tracked.size > this.capacity) {
      const [oldKey, old] = this.tracked.entries().next().value!;
      this.tracked.delete(oldKey);
      const r = this.retired.get(old.ref.repo) ?? { up: 0, down: 0, comments: 0 };
      const s = sum(old.comments);
      this.retired.set(old.ref.repo, { up: r.up + s.up, down: r.down + s.down, comments: r.comments + s.comments });
    }
  }

  due(limit: number, minAgeMs: number): PrRef[] {
    const cutoff = this.now() - minAgeMs;
    return [...this.tracked.values()]
      .reverse()
      .filter((t) => t.readAt <= cutoff)
      .slice(0, limit)
      .map((t) => ({ ...t.ref }));
  }

  set(pr: PrRef, comments: Map<string, FeedbackCounts> | undefined): void {
    const k = keyOf(pr);
    const t = this.tracked.get(k);
    if (!t) return;
    if (!comments) {
      this.tracked.delete(k);
      return;
    }
    for (const [ck, c] of comments) t.comments.set(ck, { ...c });
    t.readAt = this.now();
  }

  counts(): Record<string, RepoFeedback> {
    const out: Record<string, RepoFeedback> = {};
    for (const [repo, r] of this.retired) out[repo] = { ...r };
    for (const t of this.tracked.values()) {
      const r = (out[t.ref.repo] ??= { up: 0, down: 0, comments: 0 });
      const s = sum(t.comments);
      r.up += s.up;
      r.down += s.down;
      r.comments += s.comments;
    }
    return out;
  }
}

/** Pages of 100 comments read per list (review comments, conversation comments) of one PR. */
export const FEEDBACK_MAX_PAGES = 3;

interface RawComment {
  id: number;
  body?: string | null;
  user?: { login?: string; type?: string } | null;
  reactions?: { '+1'?: number; '-1'?: number } | null;
}

/**
 * 👍 and 👎 on Redline's comments of one PR (the ones carrying a fingerprint, by our bot account),
 * from the reaction totals GitHub includes in comment lists: two lists, bounded pages, no call per
 * comment. Undefined when the PR or repository is gone.
 */
export async function readPrFeedback(gh: GitHub, p: PrRef, isOurs: IsOurs = anyBot, maxPages = FEEDBACK_MAX_PAGES): Promise<Map<string, FeedbackCounts> | undefined> {
  const [owner, repo] = p.repo.split('/') as [string, string];
  const out = new Map<string, FeedbackCounts>();
  const lists = [
    ['review', 'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments', { owner, repo, pull_number: p.pr }],
    ['issue', 'GET /repos/{owner}/{repo}/issues/{issue_number}/comments', { owner, repo, issue_number: p.pr }],
  ] as const;
  try {
    for (const [kind, route, params] of lists) {
      for (let page = 1; page <= maxPages; page++) {
        const { data } = await gh.request(route, { ...params, per_page: 100, page });
        const items = data as RawComment[];
        for (const c of items) {
          if (!isOurs(c.user) || !parseFingerprint(c.body)) continue;
          out.set(`${kind}:${c.id}`, { up: Number(c.reactions?.['+1'] ?? 0) || 0, down: Number(c.reactions?.['-1'] ?? 0) || 0 });
        }
        if (items.length < 100) break;
      }
    }
  } catch (e) {
    if (statusOf(e) === 404 || statusOf(e) === 410) return undefined;
    throw e;
  }
  return out;
}

export interface RefreshOptions {
  /** PRs read per refresh (newest first). */
  limit?: number;
  /** A PR read this recently is not read again. */
  minAgeMs?: number;
  /** PRs read at once. */
  concurrency?: number;
  /** The refresh gives up waiting after this long (the page shows what it has). */
  timeoutMs?: number;
  /** Which authors are this App; asked only when some PR is due. Default: any bot. */
  isOurs?: () => Promise<IsOurs>;
}

/**
 * Re-reads the reactions on the PRs due, with an installation client per installation. Failures are
 * skipped (the previous counts stay); never throws.
 */
export async function refreshFeedback(store: FeedbackStore, auth: (installationId: number) => Promise<GitHub>, o: RefreshOptions = {}): Promise<void> {
  const due = store.due(o.limit ?? 20, o.minAgeMs ?? 30_000);
  if (!due.length) return;
  const isOurs = (await o.isOurs?.().catch(() => undefined)) ?? anyBot;
  const clients = new Map<number, Promise<GitHub>>();
  const clientFor = (id: number): Promise<GitHub> => {
    let p = clients.get(id);
    if (!p) clients.set(id, (p = auth(id)));
    return p;
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < due.length) {
      const p = due[next++]!;
      try {
        store.set(p, await readPrFeedback(await clientFor(p.installationId), p, isOurs));
      } catch {
        // keep the last counts; the next look tries again
      }
    }
  };
  const work = Promise.all(Array.from({ length: Math.min(o.concurrency ?? 4, due.length) }, worker));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((r) => (timer = setTimeout(r, o.timeoutMs ?? 5_000)));
  await Promise.race([work, timeout]);
  clearTimeout(timer);
}
