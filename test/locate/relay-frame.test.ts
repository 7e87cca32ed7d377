import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { gitDirOf } from '../../scripts/bench-pins-lib.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/**
 * uwescience/myria, Travis job 122377299 (fixtures/real-pins/uwescience-myria-122377299: the BugSwarm
 * dissection's failing log, the failing commit's tree): `TipsyFileScan.openFileInputStream` only wraps the
 * FileNotFoundException (`catch … throw new DbException(e)`, line 348); the real fix changed its caller,
 * `openFileOrUrlInputStream` (line 335). Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const c = JSON.parse(readFileSync(new URL('../../fixtures/real-pins/uwescience-myria-122377299/case.json', import.meta.url), 'utf8'));
const repoGit = gitDirOf(c.repo);
const logGit = gitDirOf(c.log.dataset);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe.skipIf(!repoGit || !logGit)('a frame that only re-throws what it caught (real myria failure)', () => {
  it('pins the call below it, with no diff', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redline-relay-'));
    dirs.push(dir);
    const tree = join(dir, 'tree');
    execFileSync('mkdir', [tree]);
    execFileSync('sh', ['-c', `git --git-dir="${repoGit}" archive ${c.failing} | tar -x -C "${tree}"`]);
    const log = join(dir, 'failing.log');
    writeFileSync(log, execFileSync('git', [`--git-dir=${logGit}`, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 64 << 20 }));
    const { diagnosis, trace } = await diagnoseWithTrace({ log, repo: tree });
    const top = diagnosis.findings[0]!;
    expect(`${top.file}:${top.line}`).toBe('src/edu/washington/escience/myria/operator/TipsyFileScan.java:335');
    const cand = trace.candidates.find((x: { file: string; line: number }) => x.file === top.file && x.line === 335)!;
    expect(cand.notes.some((n: string) => n.includes('only re-throws what it caught'))).toBe(true);
  }, 120_000);
});
