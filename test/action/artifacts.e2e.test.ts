/**
 * The Action keeps the raw log, the cleaned log, the diagnosis and the trace as a workflow artifact
 * (@actions/artifact, against a local stand-in for the artifact service) and links it from the comment
 * and the job summary. Without the runtime token (outside Actions) it says where they are instead.
 */
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startFakeArtifactService, readZip, type FakeArtifactService } from '../helpers/fake-artifact-service.js';
import { FIXTURE, HEAD_SHA, REPO, prFiles, startActionHarness, type ActionHarness } from './harness.js';

let h: ActionHarness;
let svc: FakeArtifactService;
beforeEach(async () => {
  h = await startActionHarness();
  svc = await startFakeArtifactService();
});
afterEach(async () => {
  await h.close();
  await svc.close();
});

describe('the Action uploads its artifacts', () => {
  it('uploads raw log, cleaned log, diagnosis and trace, and links them from the comment and the summary', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
    const res = await h.run({
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: h.event(),
      'INPUT_LOG-FILE': join(FIXTURE, 'log.txt'),
      ACTIONS_RUNTIME_TOKEN: svc.token,
      ACTIONS_RESULTS_URL: `${svc.url}/`,
      GITHUB_RUN_ATTEMPT: '1',
    });
    expect(res.code, res.stderr).toBe(0);
    expect(svc.artifacts).toHaveLength(1);
    const art = svc.artifacts[0]!;
    expect(art.name).toMatch(/^redline-.*-1$/);
    const entries = readZip(art.blob!).map((e) => e.name).sort();
    expect(entries).toEqual(['cleaned.log', 'diagnosis.json', 'raw.log', 'trace.json']);
    const url = `https://github.com/${REPO}/actions/runs/900/artifacts/${art.id}`;
    expect(res.summary).toContain(url);
    expect(h.fake.repo(REPO).reviewComments[0]!.body).toContain(url);
  });

  it('outside Actions (no runtime token) still reports, and says where the artifacts are', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
    const res = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event(), 'INPUT_LOG-FILE': join(FIXTURE, 'log.txt') });
    expect(res.code, res.stderr).toBe(0);
    expect(svc.requests).toHaveLength(0);
    expect(res.stdout).toMatch(/artifacts kept in .*redline.* \(not uploaded: not running in GitHub Actions\)/);
    expect(h.fake.repo(REPO).reviewComments).toHaveLength(1);
  });

  it('mode 1 (the run\'s failed jobs through the API): the job log fetched from the API is the raw.log uploaded', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
    const log = (await import('node:fs')).readFileSync(join(FIXTURE, 'log.txt'));
    h.fake.addJob(REPO, { id: 501, run_id: 900, name: 'typecheck', workflow_name: 'CI', head_sha: HEAD_SHA, log: log.toString('utf8') });
    const res = await h.run({ GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: h.event(), ACTIONS_RUNTIME_TOKEN: svc.token, ACTIONS_RESULTS_URL: `${svc.url}/` });
    expect(res.code, res.stderr).toBe(0);
    expect(svc.artifacts).toHaveLength(1);
    expect(svc.artifacts[0]!.name).toMatch(/^redline-CI-typecheck-/);
    const raw = readZip(svc.artifacts[0]!.blob!).find((e) => e.name === 'raw.log')!;
    expect(raw.data.equals(log)).toBe(true);
    expect(res.summary).toContain(`/actions/runs/900/artifacts/${svc.artifacts[0]!.id}`);
  });
});
