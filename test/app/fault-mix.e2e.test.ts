/**
 * The App under a seeded mix of GitHub faults (issue 7): many distinct failing jobs delivered, some
 * twice, while the local GitHub answers a share of the requests with 5xx (some after storing the
 * write), secondary and primary rate limits, dropped connections, and expired or dropped log links.
 * Every failure must still end with exactly one Redline comment, and no request may break GitHub's rules.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseFingerprint } from '../../src/report/fingerprint.js';
import { deliver, FAULT_KINDS, type FaultMix } from '../helpers/fake-github/index.js';
import { FIXTURE, RECEIPT_EDIT, REPO, SECRET, fixtureTarball, headFiles, patchFiles, startHarness, workflowJobPayload, type Harness } from './e2e-helpers.js';

const LOG = readFileSync(join(FIXTURE, 'log.txt'), 'utf8');
/** Distinct failures: one PR each, on its own head commit, with its own failing job. */
const FAILURES = 30;
/** Redeliveries of the same delivery id (the queue must ignore them). */
const SAME_ID_AGAIN = 6;
/** The same job delivered again under a new delivery id (it runs again and must find its comment). */
const NEW_ID_AGAIN = 4;

/**
 * Rates far above GitHub's real ones, so a few hundred requests meet every kind several times. The
 * seed makes the faults land on the same requests on every run (faults.ts draws per request name and
 * occurrence: exact for each PR's own paths; paths all jobs share, like the config file, are numbered
 * in the order the concurrent jobs reach them, so their faults can move between jobs).
 */
const MIX: FaultMix = {
  // FAULT_SEED=<n> replays another run (the seed is in the log line below).
  seed: Number(process.env.FAULT_SEED ?? 20261129),
  rates: {
    serverError: 0.05,
    serverErrorAfterEffect: 0.08,
    secondaryRateLimit: 0.03,
    secondaryNoRetryAfter: 0.02,
    primaryRateLimit: 0.02,
    networkReset: 0.03,
    networkResetAfterEffect: 0.1,
    logLinkExpired: 0.15,
  },
};

/** Our waits, shortened: rate limits (up to a minute) and write backoff (1, 2, 4 s) take a few ms here. */
const fastSleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, Math.min(ms, 5)));

let h: Harness;
beforeEach(async () => {
  h = await startHarness({
    concurrency: 8,
    resilience: { sleep: fastSleep },
    logFetch: { baseDelayMs: 5, sleep: fastSleep },
    // One run per job: a job that fails under these faults is a bug in the client, not something for
    // the queue's retries to hide.
    retry: { attempts: 1 },
  });
});
afterEach(async () => {
  await h.close();
});

const sha = (i: number): string => (0xc0de0000 + i).toString(16).padEnd(40, '7');

describe('the App under a seeded fault mix', () => {
  it(`${FAILURES} failing jobs (+${SAME_ID_AGAIN + NEW_ID_AGAIN} redeliveries) → exactly one Redline comment each, every fault kind met, no rule broken`, async () => {
    const files = headFiles();
    const jobs = Array.from({ length: FAILURES }, (_, i) => {
      const number = 100 + i;
      const head = sha(i);
      h.fake.repo(REPO).tarballs[head] = fixtureTarball(head, files);
      // Two in three PRs touch the failing line (a review comment on it); the rest do not (a PR comment).
      h.fake.addPull(REPO, { number, head: { ref: `topic-${i}`, sha: head }, files: i % 3 === 2 ? patchFiles() : [...patchFiles(), RECEIPT_EDIT] });
      const job = h.fake.addJob(REPO, { id: 9000 + i, name: `typecheck-${i}`, workflow_name: 'CI', head_sha: head, log: LOG });
      return { number, head, job };
    });

    h.fake.setFaultMix(MIX);
    const t0 = performance.now();
    const delivered: string[] = [];
    for (const { job, head } of jobs) {
      const payload = workflowJobPayload(h.fake, job) as { workflow_job: { head_sha: string } };
      payload.workflow_job.head_sha = head;
      const res = await deliver(h.webhookUrl, 'workflow_job', payload, SECRET);
      expect(res.status).toBe(200);
      delivered.push(res.id);
    }
    for (let i = 0; i < SAME_ID_AGAIN + NEW_ID_AGAIN; i++) {
      const { job, head } = jobs[i * 3]!;
      const payload = workflowJobPayload(h.fake, job) as { workflow_job: { head_sha: string } };
      payload.workflow_job.head_sha = head;
      const res = await deliver(h.webhookUrl, 'workflow_job', payload, SECRET, i < SAME_ID_AGAIN ? { id: delivered[i * 3]! } : {});
      expect(res.status).toBe(200);
    }
    await h.queue.idle();
    const elapsedMs = performance.now() - t0;

    const repo = h.fake.repo(REPO);
    const ours = <T extends { user: string; body: string }>(c: T): boolean => c.user === 'redline[bot]' && parseFingerprint(c.body) !== undefined;
    const perPr = jobs.map(({ number }) => ({
      number,
      review: repo.reviewComments.filter((c) => c.pull_number === number && ours(c)).length,
      issue: repo.issueComments.filter((c) => c.issue_number === number && ours(c)).length,
    }));
    const checkRuns = jobs.map(({ head }) => repo.checkRuns.filter((c) => c.name === 'Redline' && c.head_sha === head).length);
    const summary = { seed: MIX.seed, elapsedMs: Math.round(elapsedMs), faults: h.fake.faultCounts, requests: h.fake.requests.length, comments: repo.reviewComments.length + repo.issueComments.length };
    console.info('fault mix run:', JSON.stringify(summary));
    expect(await h.queue.counts()).toEqual({ waiting: 0, running: 0, dead: 0 });
    expect(perPr.filter((p) => p.review + p.issue !== 1)).toEqual([]);
    expect(perPr.filter((p) => p.review === 1)).toHaveLength((FAILURES * 2) / 3);
    expect(summary.comments).toBe(FAILURES);
    expect(checkRuns.filter((n) => n !== 1)).toEqual([]);
    // A log that could not be read ends as a check run without a comment: none may end that way here.
    expect(repo.checkRuns.filter((c) => /log unavailable/.test(c.output.title ?? ''))).toEqual([]);
    for (const kind of FAULT_KINDS) expect(summary.faults[kind], kind).toBeGreaterThan(0);
    expect(h.fake.violations).toEqual([]);
    expect(elapsedMs).toBeLessThan(30_000);
  });
});
