/**
 * What the App keeps around its diagnoses: the recent ones, feedback on its comments, the artifacts,
 * and the HTTP routes that show them. The door (src/doors/app.ts) creates one per app and hands
 * `artifactsFor` to the job handler and `record` the outcome.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { DiagnoseTrace } from '../diagnose.js';
import { UsageError } from '../errors.js';
import type { GitHub } from '../github/client.js';
import type { JobOutcome } from '../github/handle-failed-job.js';
import { redactSecrets } from '../safety/redact.js';
import type { Diagnosis } from '../types.js';
import {
  type ArtifactStore,
  ArtifactSigner,
  DEFAULT_ARTIFACT_STORE_BYTES,
  DEFAULT_ARTIFACT_TTL_S,
  LocalArtifactStore,
  artifactFiles,
  artifactKey,
  keepLogHead,
} from './artifact-store.js';
import type { IsOurs } from '../github/comments.js';
import type { DeadLetter } from '../queue/queue.js';
import { type FeedbackStore, InMemoryFeedbackStore, type PrRef, refreshFeedback } from './feedback.js';
import { ARTIFACT_INDEX, redlineRoutes } from './http.js';
import { RecentDiagnoses, type RecentDiagnosis } from './recent.js';

export interface ServiceOptions {
  /** REDLINE_STATUS_TOKEN: the status page's shared token; unset, the page is off. */
  statusToken?: string | undefined;
  /** REDLINE_PUBLIC_URL: the App's https address as GitHub users reach it; unset, comments carry no artifact link. */
  publicUrl?: string | undefined;
  /** REDLINE_ARTIFACT_KEY: signs artifact links; default: derived from WEBHOOK_SECRET. */
  artifactKey?: string | undefined;
  /** REDLINE_ARTIFACT_DIR: default `$REDLINE_CACHE_DIR/artifacts` (next to the checkouts, never inside). */
  artifactDir?: string | undefined;
  /** REDLINE_ARTIFACT_TTL_DAYS (default 7): links and files expire. */
  artifactTtlS?: number;
  /** REDLINE_ARTIFACT_MAX_MB (default 1024): the store's size, oldest first out. */
  artifactMaxBytes?: number;
  /** Replaces the local-folder store. */
  artifactStore?: ArtifactStore;
  /** Replaces the in-memory feedback counts. */
  feedback?: FeedbackStore;
  /** Clock (tests). */
  now?: () => number;
}

function positive(env: NodeJS.ProcessEnv, name: string, max: number): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || n > max) throw new UsageError(`${name}=${raw} is not a number above 0 and at most ${max}; unset it for the default`);
  return n;
}

/** The service's settings from the environment (a bad value is a UsageError naming the variable). */
export function serviceOptionsFromEnv(env: NodeJS.ProcessEnv = process.env): ServiceOptions {
  const ttlDays = positive(env, 'REDLINE_ARTIFACT_TTL_DAYS', 365);
  const maxMb = positive(env, 'REDLINE_ARTIFACT_MAX_MB', 1024 * 1024);
  return {
    ...(env.REDLINE_STATUS_TOKEN ? { statusToken: env.REDLINE_STATUS_TOKEN } : {}),
    ...(env.REDLINE_PUBLIC_URL ? { publicUrl: env.REDLINE_PUBLIC_URL } : {}),
    ...(env.REDLINE_ARTIFACT_KEY ? { artifactKey: env.REDLINE_ARTIFACT_KEY } : {}),
    artifactDir: env.REDLINE_ARTIFACT_DIR || join(env.REDLINE_CACHE_DIR || join(tmpdir(), 'redline-cache'), 'artifacts'),
    ...(ttlDays !== undefined ? { artifactTtlS: Math.round(ttlDays * 86400) } : {}),
    ...(maxMb !== undefined ? { artifactMaxBytes: Math.round(maxMb * 1024 * 1024) } : {}),
  };
}

/** What the job handler gets: wraps the log stream, then stores the artifacts and returns the comment's link. */
export type JobArtifacts = (log: Readable) => { log: Readable; save(d: Diagnosis, trace: DiagnoseTrace): Promise<string | undefined> };

export interface ServiceDeps {
  queueDepth: () => Promise<number>;
  /** Outcomes recorded by other processes (workers), taken when the status page is asked for. */
  pullOutcomes?: () => Promise<SharedOutcome[]>;
  deadLetters?: () => Promise<DeadLetter[]>;
  /** An installation client (Probot's `app.auth(id)`), to read reactions outside a webhook. */
  auth: (installationId: number) => Promise<GitHub>;
  /** Which comment authors are this App (its bot account). */
  isOurs?: () => Promise<IsOurs>;
  warn?: (msg: string) => void;
  webhookSecret?: string | undefined;
}

export interface OutcomeJob {
  repo: string;
  installationId?: number | undefined;
  startedMs: number;
}

/** A diagnosis as another process hands it to the App's status page and feedback counts. */
export interface SharedOutcome {
  diagnosis: RecentDiagnosis;
  installationId?: number | undefined;
}

/** The status page's line for a published outcome (undefined for the others: no pin to show). */
export function recentOf(out: JobOutcome, job: OutcomeJob, now: () => number = Date.now): RecentDiagnosis | undefined {
  if (out.status !== 'published') return undefined;
  const d = out.diagnosis;
  const top = d.status === 'located' ? d.findings[0] : undefined;
  return {
    at: new Date(now()).toISOString(),
    repo: job.repo,
    pr: out.pr,
    pin: top ? redactSecrets(`${top.file.slice(0, 300)}:${top.line}`).text : null,
    category: d.category,
    status: d.status,
    tier: out.result.placement.tier,
    action: out.result.action,
    ms: Math.round(performance.now() - job.startedMs),
  };
}

export class RedlineService {
  readonly recent = new RecentDiagnoses();
  readonly feedback: FeedbackStore;
  readonly artifacts: ArtifactStore;
  readonly signer: ArtifactSigner;
  readonly publicUrl: string | undefined;
  private readonly ttlS: number;
  private readonly now: () => number;

  constructor(
    private readonly opts: ServiceOptions,
    private readonly deps: ServiceDeps,
  ) {
    this.now = opts.now ?? Date.now;
    this.ttlS = opts.artifactTtlS ?? DEFAULT_ARTIFACT_TTL_S;
    this.feedback = opts.feedback ?? new InMemoryFeedbackStore();
    this.artifacts =
      opts.artifactStore ??
      new LocalArtifactStore(opts.artifactDir ?? join(tmpdir(), 'redline-cache', 'artifacts'), {
        maxBytes: opts.artifactMaxBytes ?? DEFAULT_ARTIFACT_STORE_BYTES,
        ttlS: this.ttlS,
        now: this.now,
      });
    const key = artifactKey({ key: opts.artifactKey, webhookSecret: deps.webhookSecret });
    this.signer = new ArtifactSigner(key.key);
    const url = opts.publicUrl?.trim().replace(/\/+$/, '');
    // Comments only link https (sanitize.safeUrl): an http address would be dropped there anyway.
    if (url && !/^https:\/\/[^\s/?#]+(\/[^\s?#]*)?$/.test(url)) {
      deps.warn?.(`REDLINE_PUBLIC_URL=${url} is not an https:// address: comments will carry no artifact link`);
    } else this.publicUrl = url || undefined;
    if (this.publicUrl && key.source === 'random') deps.warn?.('no REDLINE_ARTIFACT_KEY or WEBHOOK_SECRET: artifact links stop working when the App restarts');
  }

  /** The Probot handler for `/redline/status` and `/redline/artifacts/…`. */
  get handler(): ReturnType<typeof redlineRoutes> {
    return redlineRoutes({
      statusToken: this.opts.statusToken,
      artifacts: this.artifacts,
      signer: this.signer,
      now: this.now,
      status: async () => {
        // Diagnoses run by `redline worker` processes reach the App through Redis (outcome-feed.ts).
        for (const o of (await this.deps.pullOutcomes?.().catch(() => [])) ?? []) this.record(o.diagnosis, o.installationId);
        await refreshFeedback(this.feedback, this.deps.auth, this.deps.isOurs ? { isOurs: this.deps.isOurs } : {});
        return { queueDepth: await this.deps.queueDepth(), deadLetters: (await this.deps.deadLetters?.()) ?? [], recent: this.recent.list(), feedback: this.feedback.counts() };
      },
    });
  }

  /** The signed link to an artifact set's index page, or undefined without a public URL. */
  linkFor(id: string): string | undefined {
    if (!this.publicUrl) return undefined;
    const exp = Math.floor(this.now() / 1000) + this.ttlS;
    return this.signer.url(this.publicUrl, id, ARTIFACT_INDEX, exp);
  }

  /** For the job handler: keeps the log's head, stores the artifacts; a storage failure costs the link, not the comment. */
  readonly artifactsFor: JobArtifacts = (log) => {
    const kept = keepLogHead(log);
    return {
      log: kept.log,
      save: async (diagnosis, trace) => {
        try {
          const id = await this.artifacts.put(artifactFiles({ rawText: kept.text(), diagnosis, trace }));
          return this.linkFor(id);
        } catch (e) {
          this.deps.warn?.(`redline: artifacts not stored: ${(e as Error).message}`);
          return undefined;
        }
      },
    };
  };

  /** Records a job handler's outcome (published ones only: the others have no pin to show). */
  recordOutcome(out: JobOutcome, job: OutcomeJob): void {
    const d = recentOf(out, job, this.now);
    if (d) this.record(d, job.installationId);
  }

  /** Records a finished diagnosis for the status page, and the PR whose Redline comments' reactions count. */
  record(d: RecentDiagnosis, installationId?: number): void {
    this.recent.add(d);
    if (installationId !== undefined) this.feedback.track({ repo: d.repo, pr: d.pr, installationId } satisfies PrRef);
  }
}
