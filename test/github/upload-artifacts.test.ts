import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { writeArtifacts } from '../../src/report/artifacts.js';
import { NOT_IN_ACTIONS, uploadDiagnosisArtifacts, type DiagnosisArtifactName } from '../../src/github/upload-artifacts.js';
import { makeRuntimeToken, readZip, startFakeArtifactService, type FakeArtifactService } from '../helpers/fake-artifact-service.js';

const LOG = join(import.meta.dirname, '../../fixtures/logs/tsc-return-type-mismatch/log.txt');
const NAMES: DiagnosisArtifactName[] = ['raw.log', 'cleaned.log', 'diagnosis.json', 'trace.json'];

let outDir: string;
let files: Record<DiagnosisArtifactName, string>;
beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'redline-upload-'));
  const { diagnosis, trace } = await diagnoseWithTrace({ log: LOG });
  const dir = await writeArtifacts(join(outDir, 'artifacts'), { log: LOG, diagnosis, trace });
  files = Object.fromEntries(NAMES.map((n) => [n, join(dir, n)])) as Record<DiagnosisArtifactName, string>;
});
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

let fake: FakeArtifactService;
beforeEach(async () => {
  fake = await startFakeArtifactService();
  // The runner's environment, for this test only (vi.unstubAllEnvs restores it).
  vi.stubEnv('ACTIONS_RUNTIME_TOKEN', fake.token);
  vi.stubEnv('ACTIONS_RESULTS_URL', `${fake.url}/`);
  vi.stubEnv('GITHUB_SERVER_URL', 'https://github.com');
  vi.stubEnv('GITHUB_REPOSITORY', 'acme/widgets');
  vi.stubEnv('GITHUB_RUN_ID', '9876543210');
  vi.stubEnv('GITHUB_RETENTION_DAYS', undefined);
  vi.stubEnv('RUNNER_TEMP', outDir);
});
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  await fake.close();
});

/** Runs `p` with the client's retry sleeps (global setTimeout) fast-forwarded; the sockets stay real. */
async function withFastRetries<T>(run: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  let settled = false;
  const p = run().finally(() => {
    settled = true;
  });
  while (!settled) {
    await vi.advanceTimersByTimeAsync(1_000);
    await new Promise((r) => setImmediate(r));
  }
  return p;
}

describe('uploadDiagnosisArtifacts', () => {
  it('uploads the four files as one zip through CreateArtifact, the blob upload and FinalizeArtifact', async () => {
    const res = await uploadDiagnosisArtifacts({ name: 'redline-typecheck', files, retentionDays: 7 });

    expect(fake.artifacts).toHaveLength(1);
    const a = fake.artifacts[0]!;
    expect(res).toEqual({
      id: a.id,
      url: `https://github.com/acme/widgets/actions/runs/9876543210/artifacts/${a.id}`,
      size: a.blob!.length,
      digest: createHash('sha256').update(a.blob!).digest('hex'),
    });

    // CreateArtifact: the name, the run and job from the token, a zip, the retention as an expiry.
    const [create, ...moreCreates] = fake.calls('CreateArtifact');
    expect(moreCreates).toHaveLength(0);
    expect(create!.status).toBe(200);
    expect(create!.headers['authorization']).toBe(`Bearer ${fake.token}`);
    expect(create!.json).toMatchObject({
      workflow_run_backend_id: fake.runBackendId,
      workflow_job_run_backend_id: fake.jobBackendId,
      name: 'redline-typecheck',
      mime_type: 'application/zip',
      version: 7,
    });
    const days = (Date.parse(String(create!.json!['expires_at'])) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThan(7.1);

    // The blob: staged block(s), then the block list, on the signed URL; the zip holds the four files.
    expect(fake.calls('StageBlock').length).toBeGreaterThanOrEqual(1);
    expect(fake.calls('StageBlock').every((r) => r.status === 201)).toBe(true);
    expect(fake.calls('CommitBlockList').map((r) => r.status)).toEqual([201]);
    expect(a.blobContentType).toBe('application/zip');
    const entries = readZip(a.blob!);
    expect(entries.map((e) => e.name).sort()).toEqual([...NAMES].sort());
    for (const e of entries) expect(e.data.equals(readFileSync(files[e.name as DiagnosisArtifactName]))).toBe(true);
    const diagnosis = JSON.parse(entries.find((e) => e.name === 'diagnosis.json')!.data.toString('utf8')) as Record<string, unknown>;
    expect(diagnosis).toBeTypeOf('object');

    // FinalizeArtifact: the size and sha256 the client computed over what it uploaded.
    const [finalize, ...moreFinalizes] = fake.calls('FinalizeArtifact');
    expect(moreFinalizes).toHaveLength(0);
    expect(finalize!.status).toBe(200);
    expect(finalize!.json).toMatchObject({
      name: 'redline-typecheck',
      size: String(a.blob!.length),
      hash: `sha256:${createHash('sha256').update(a.blob!).digest('hex')}`,
    });
    expect(a.finalized).toEqual({ size: a.blob!.length, hash: finalize!.json!['hash'] });

    // In order, and nothing else was asked.
    expect(fake.requests.map((r) => r.op)).toEqual([
      'CreateArtifact',
      ...fake.calls('StageBlock').map(() => 'StageBlock'),
      'CommitBlockList',
      'FinalizeArtifact',
    ]);
  });

  it('names the entries by their keys when the files are elsewhere or named otherwise', async () => {
    const res = await uploadDiagnosisArtifacts({ name: 'redline-tee', files: { ...files, 'raw.log': LOG } });
    expect(res).toMatchObject({ id: fake.artifacts[0]!.id });
    const entries = readZip(fake.artifacts[0]!.blob!);
    expect(entries.map((e) => e.name).sort()).toEqual([...NAMES].sort());
    expect(entries.find((e) => e.name === 'raw.log')!.data.equals(readFileSync(LOG))).toBe(true);
  });

  it('leaves the url out when the run is not known, and keeps the id', async () => {
    vi.stubEnv('GITHUB_RUN_ID', undefined);
    const res = await uploadDiagnosisArtifacts({ name: 'redline-no-run', files });
    expect(res).toMatchObject({ id: fake.artifacts[0]!.id });
    expect(res).not.toHaveProperty('url');
  });

  it('skips outside GitHub Actions (no runtime token) without a request', async () => {
    vi.stubEnv('ACTIONS_RUNTIME_TOKEN', undefined);
    await expect(uploadDiagnosisArtifacts({ name: 'redline-local', files })).resolves.toEqual({ skipped: NOT_IN_ACTIONS });
    expect(fake.requests).toHaveLength(0);
  });

  it('skips with a one-line reason when the service answers 500 (after the client retries), and does not throw', async () => {
    fake.fail('CreateArtifact', 500);
    const res = await withFastRetries(() => uploadDiagnosisArtifacts({ name: 'redline-500', files }));
    expect(res).toHaveProperty('skipped');
    const reason = (res as { skipped: string }).skipped;
    expect(reason).toMatch(/CreateArtifact/);
    expect(reason).toMatch(/500/);
    expect(reason).not.toMatch(/\n/);
    expect(fake.calls('CreateArtifact')).toHaveLength(5);
    expect(fake.calls('CreateArtifact').every((r) => r.status === 500)).toBe(true);
    expect(fake.calls('StageBlock')).toHaveLength(0);
    expect(fake.calls('FinalizeArtifact')).toHaveLength(0);
  });

  it('skips when the blob store fails the commit, without finalizing', async () => {
    fake.fail('CommitBlockList', 403);
    const res = await uploadDiagnosisArtifacts({ name: 'redline-blob', files });
    expect(res).toEqual({ skipped: expect.stringMatching(/^blob storage answered 403 AuthorizationFailure: injected failure of CommitBlockList/) });
    expect((res as { skipped: string }).skipped).not.toMatch(/\n/);
    expect((res as { skipped: string }).skipped).not.toContain(fake.artifacts[0]!.sig);
    expect(fake.calls('FinalizeArtifact')).toHaveLength(0);
  });

  it('skips when an artifact of that name already exists in the run (409)', async () => {
    expect(await uploadDiagnosisArtifacts({ name: 'redline-twice', files })).toHaveProperty('id');
    const res = await uploadDiagnosisArtifacts({ name: 'redline-twice', files });
    expect(res).toEqual({ skipped: expect.stringMatching(/409.*already exists/) });
  });

  it('skips when the runtime token is not the one the service issued (401)', async () => {
    vi.stubEnv('ACTIONS_RUNTIME_TOKEN', makeRuntimeToken('other-run', 'other-job'));
    const res = await uploadDiagnosisArtifacts({ name: 'redline-401', files });
    expect(res).toEqual({ skipped: expect.stringMatching(/401/) });
    expect(fake.artifacts).toHaveLength(0);
  });

  it('skips on GHES, which the artifact service v2 does not serve', async () => {
    vi.stubEnv('GITHUB_SERVER_URL', 'https://ghe.example.com');
    const res = await uploadDiagnosisArtifacts({ name: 'redline-ghes', files });
    expect(res).toEqual({ skipped: expect.stringMatching(/GHES/) });
    expect(fake.requests).toHaveLength(0);
  });
});
