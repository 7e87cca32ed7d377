/**
 * The door's `run()` through GitHub's own local runner for JavaScript actions, `@github/local-action`
 * (its CLI, as the README tells users to run it: `local-action run . src/doors/action.ts .env`): it reads
 * action.yml, loads the TypeScript door with tsx, stubs @actions/core and calls `run()`. Mode 2 with
 * write access against the local GitHub; the outputs are the ones local-action itself reports.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE, HEAD_SHA, REPO, ROOT, prFiles, startActionHarness, type ActionHarness } from './harness.js';

const LOCAL_ACTION = join(ROOT, 'node_modules/@github/local-action/bin/local-action.js');

/** The rows of local-action's "Action Outputs" table (console.table: `│ 0 │ 'file' │ 'src/receipt.ts' │`). */
function reportedOutputs(stdout: string): Record<string, string> {
  const section = stdout.slice(stdout.indexOf('Action Outputs'));
  return Object.fromEntries([...section.matchAll(/^│\s*\d+\s*│\s*'([\w-]+)'\s*│\s*'(.*?)'\s*│$/gm)].map((m) => [m[1]!, m[2]!]));
}

let h: ActionHarness;
beforeEach(async () => {
  h = await startActionHarness();
});
afterEach(async () => {
  await h.close();
});

describe('the Action through @github/local-action', () => {
  it('mode 2 with write access → run() reports file, line, category and status; one review comment on the line', async () => {
    h.fake.addPull(REPO, { number: 7, head: { ref: 'currency', sha: HEAD_SHA }, files: prFiles() });
    const dotenv = join(h.tmp, '.env');
    writeFileSync(dotenv, [
      `GITHUB_REPOSITORY=${REPO}`, `GITHUB_WORKSPACE=${h.workspace}`, `GITHUB_API_URL=${h.fake.url}`, 'GITHUB_SERVER_URL=https://github.com',
      'GITHUB_EVENT_NAME=pull_request', `GITHUB_EVENT_PATH=${h.event()}`, `GITHUB_SHA=${HEAD_SHA}`, 'GITHUB_WORKFLOW=CI', 'GITHUB_JOB=typecheck',
      'GITHUB_RUN_ID=900', `RUNNER_TEMP=${h.tmp}`, `INPUT_GITHUB-TOKEN=${h.token}`, `INPUT_LOG-FILE=${join(FIXTURE, 'log.txt')}`, '',
    ].join('\n'));
    const res = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [LOCAL_ACTION, 'run', '.', 'src/doors/action.ts', dotenv], {
        cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: h.tmp }, timeout: 120_000, maxBuffer: 16 * 1024 * 1024,
      }, (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
    });
    expect(res.code, res.stdout + res.stderr).toBe(0);
    // local-action read action.yml (it refuses a file it cannot parse) and ran our run().
    expect(res.stdout).toContain('Running Action');
    expect(reportedOutputs(res.stdout)).toMatchObject({ file: 'src/receipt.ts', line: '15', category: 'compile', status: 'located' });
    expect(h.fake.violations).toEqual([]);
    const repo = h.fake.repo(REPO);
    expect(repo.reviewComments).toHaveLength(1);
    expect(repo.reviewComments[0]).toMatchObject({ path: 'src/receipt.ts', line: 15, side: 'RIGHT' });
    expect(reportedOutputs(res.stdout)['comment-url']).toBe(`https://github.com/${REPO}/pull/7#discussion_r${repo.reviewComments[0]!.id}`);
  });
});
