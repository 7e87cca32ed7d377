import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { gitDirOf } from '../../scripts/bench-pins-lib.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { ASSERTION_HELPER } from '../../src/locate/from-signals.js';

/**
 * sannies/mp4parser, Travis job 408889048 (fixtures/real-pins/sannies-mp4parser-408889048: the BugSwarm
 * dissection's failing log, the failing commit's tree): `H264TrackImplTest.freeze` (line 52) hands the muxed
 * file to `BoxComparator.check`, a comparison helper kept in isoparser's main sources, whose `checkBox`
 * (line 59) calls `org.junit.Assert.assertArrayEquals`, which fails. The helper only checked; the real fix
 * changed the test (lines 48-49). Runs where `fetch` brought the mirrors (like npm run bench:pins).
 */
const c = JSON.parse(readFileSync(new URL('../../fixtures/real-pins/sannies-mp4parser-408889048/case.json', import.meta.url), 'utf8'));
const repoGit = gitDirOf(c.repo);
const logGit = gitDirOf(c.log.dataset);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

describe.skipIf(!repoGit || !logGit)('an own frame that called the test framework\'s assert (real mp4parser failure)', () => {
  it('pins the test, not the comparison helper, with no diff', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redline-assert-helper-'));
    dirs.push(dir);
    const tree = join(dir, 'tree');
    // a shared clone, as the bench makes: the mirror lacks some large media blobs `git archive` would need
    execFileSync('git', ['clone', '--shared', '--no-checkout', '-q', repoGit, tree]);
    execFileSync('git', ['-C', tree, '-c', 'advice.detachedHead=false', 'checkout', '-q', '--detach', c.failing]);
    const log = join(dir, 'failing.log');
    writeFileSync(log, execFileSync('git', [`--git-dir=${logGit}`, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 64 << 20 }));
    const { diagnosis, trace } = await diagnoseWithTrace({ log, repo: tree });
    expect(diagnosis.findings[0]!.file).toBe('muxer/src/test/java/org/mp4parser/muxer/tracks/H264TrackImplTest.java');
    const helper = trace.candidates.find((x: { file: string; line: number }) => x.file === 'isoparser/src/main/java/org/mp4parser/support/BoxComparator.java' && x.line === 59)!;
    expect(helper.notes).toContain(ASSERTION_HELPER);
  }, 120_000);
});
