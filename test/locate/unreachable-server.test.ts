import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { gitDirOf } from '../../scripts/bench-pins-lib.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/**
 * web2py/web2py, Travis job 84151797 (fixtures/real-pins/web2py-web2py-84151797: the BugSwarm dissection's
 * failing log, the failing commit's tree): `CRYPT.__call__` raises `UnboundLocalError` at validators.py:2850
 * (the line the real fix changed), in test_CRYPT and in the web server's start-up, so the server dies and three
 * web tests then fail with `URLError: <urlopen error [Errno 111] Connection refused>`, raised in the client's
 * transport.py:135. The client frame of a refused connection is not where the code is wrong. Runs where
 * `fetch` brought the mirrors (like npm run bench:pins).
 */
const c = JSON.parse(readFileSync(new URL('../../fixtures/real-pins/web2py-web2py-84151797/case.json', import.meta.url), 'utf8'));
const repoGit = gitDirOf(c.repo);
const logGit = gitDirOf(c.log.dataset);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe.skipIf(!repoGit || !logGit)('a test whose server could not be reached (real web2py failure)', () => {
  it('pins the code that raised in the other failure, not the client that met the refused connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redline-unreachable-'));
    dirs.push(dir);
    const tree = join(dir, 'tree');
    execFileSync('mkdir', [tree]);
    execFileSync('sh', ['-c', `git --git-dir="${repoGit}" archive ${c.failing} | tar -x -C "${tree}"`]);
    const log = join(dir, 'failing.log');
    writeFileSync(log, execFileSync('git', [`--git-dir=${logGit}`, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 64 << 20 }));
    const { diagnosis, trace } = await diagnoseWithTrace({ log, repo: tree });
    const top = diagnosis.findings[0]!;
    expect(`${top.file}:${top.line}`).toBe('gluon/validators.py:2850');
    const client = trace.candidates.find((x: { file: string; line: number }) => x.file === 'gluon/contrib/pysimplesoap/transport.py' && x.line === 135)!;
    expect(client.notes.some((n: string) => n.includes('could not be reached'))).toBe(true);
  }, 120_000);
});
