/**
 * The embedded queue across a crash of the App itself: `probot run` (as users start it) takes a
 * failing job, is killed with SIGKILL in the middle of it, and is started again on the same
 * REDLINE_CACHE_DIR. The queued job resumes from the SQLite file: the failure ends with exactly one
 * comment, and GitHub's redelivery of the same webhook after the restart is still recognised.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { deliver, generateAppKey, startFakeGitHub, type FakeGitHub } from '../helpers/fake-github/index.js';
import { ensureBuilt, type ProbotChild, sleep, startProbotRun, until } from './probot-child.js';
import { RECEIPT_EDIT, FIXTURE, HEAD_SHA, REPO, fixtureTarball, patchFiles, workflowJobPayload } from './e2e-helpers.js';

const SECRET = 'restart-secret';
/** ~20 MB of passing-test noise ahead of the real failure: long enough a job to be killed in. */
const LOG = `${'2026-11-29T10:00:00.0000000Z ok 1 - renders the receipt header with the invoice number and the date\n'.repeat(200_000)}${readFileSync(join(FIXTURE, 'log.txt'), 'utf8')}`;

let fake: FakeGitHub | undefined;
const apps: ProbotChild[] = [];
let cacheDir = '';

afterAll(async () => {
  for (const a of apps) await a.stop();
  await fake?.close();
  if (cacheDir) rmSync(cacheDir, { recursive: true, force: true });
});

describe('`probot run` killed mid-job and started again (embedded SQLite queue)', () => {
  it('resumes the job: exactly one comment, and the redelivery after the restart is a duplicate', async () => {
    ensureBuilt();
    const privateKey = generateAppKey();
    fake = await startFakeGitHub({ privateKey });
    fake.addRepo(REPO);
    fake.repo(REPO).tarballs[HEAD_SHA] = fixtureTarball();
    fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: [...patchFiles(), RECEIPT_EDIT] });
    const job = fake.addJob(REPO, { id: 501, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: LOG });
    cacheDir = mkdtempSync(join(tmpdir(), 'redline-restart-'));

    const first = await startProbotRun({ fake, privateKey, secret: SECRET, cacheDir });
    apps.push(first);
    const payload = workflowJobPayload(fake, job);
    const sent = await deliver(`${first.url}/api/github/webhooks`, 'workflow_job', payload, SECRET);
    expect(sent.status).toBe(200);

    // Killed once the job is under way (it has asked for the log) and before anything is posted.
    const logAsked = () => fake!.requestsTo('GET', `/repos/${REPO}/actions/jobs/501/logs`).length > 0;
    expect(await until(logAsked, 20_000), first.output()).toBe(true);
    expect(fake.repo(REPO).reviewComments).toHaveLength(0);
    first.child.kill('SIGKILL');
    await new Promise((r) => (first.child.exitCode !== null || first.child.signalCode !== null ? r(undefined) : first.child.once('exit', r)));
    const beforeRestart = fake.requests.length;

    const second = await startProbotRun({ fake, privateKey, secret: SECRET, cacheDir });
    apps.push(second);
    const repo = fake.repo(REPO);
    const done = () => repo.reviewComments.length >= 1 && repo.checkRuns.some((c) => c.name === 'Redline' && c.status === 'completed');
    expect(await until(done, 45_000), second.output()).toBe(true);
    // The restarted App did the work again from its queue file (no webhook came after the restart).
    expect(fake.requests.slice(beforeRestart).some((r) => r.path === `/repos/${REPO}/actions/jobs/501/logs`)).toBe(true);

    // GitHub's "Redeliver" after the restart: same delivery id, remembered in the file.
    const again = await deliver(`${second.url}/api/github/webhooks`, 'workflow_job', payload, SECRET, { id: sent.id });
    expect(again.status).toBe(200);
    const afterRedelivery = fake.requests.length;
    await sleep(1_500);
    expect(fake.requests.length - afterRedelivery).toBe(0);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15 });
    expect(repo.checkRuns.filter((c) => c.name === 'Redline')).toHaveLength(1);
    expect(fake.violations).toEqual([]);
  }, 120_000);
});
