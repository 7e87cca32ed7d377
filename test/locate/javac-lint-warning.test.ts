import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { gitDirOf } from '../../scripts/bench-pins-lib.mjs';
import { javacMatcher } from '../../src/extract/matchers/javac.js';
import { cleanText } from '../../src/log/clean.js';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/**
 * vkostyukov/la4j, Travis job 44960460 (fixtures/real-pins/vkostyukov-la4j-44960460: the BugSwarm dissection's
 * failing log, the failing commit's tree): maven-compiler-plugin 2.5.1 prints javac's 99 `[deprecation]`
 * warnings (594 lines: each build repeats them) at `[ERROR]` under `COMPILATION ERROR`, before the two real errors (`error: package
 * org.la4j.matrix.builder does not exist`, Matrices.java lines 32 and 33, which the real fix changed). Runs
 * where `fetch` brought the mirrors (like npm run bench:pins).
 */
const c = JSON.parse(readFileSync(new URL('../../fixtures/real-pins/vkostyukov-la4j-44960460/case.json', import.meta.url), 'utf8'));
const repoGit = gitDirOf(c.repo);
const logGit = gitDirOf(c.log.dataset);
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const logText = () => execFileSync('git', [`--git-dir=${logGit}`, 'show', `${c.log.commit}:${c.log.path}`], { maxBuffer: 64 << 20 });

describe.skipIf(!repoGit || !logGit)('a javac lint warning Maven prints at [ERROR] (real la4j failure)', () => {
  it('reads `[deprecation]` lines as warnings and the `error:` lines as errors', () => {
    const signals = javacMatcher.extract(cleanText(logText().toString('utf8')));
    const errors = signals.filter((s) => s.severity === 'error');
    expect(errors.map((s) => `${s.path?.replace('/home/travis/build/vkostyukov/la4j/', '')}:${s.line}`)).toEqual([
      'src/main/java/org/la4j/matrix/Matrices.java:32',
      'src/main/java/org/la4j/matrix/Matrices.java:33',
    ]);
    const lint = signals.filter((s) => s.message.startsWith('[deprecation] '));
    expect(lint.length).toBe(99);
    expect(lint.every((s) => s.severity === 'warning')).toBe(true);
  });

  it('pins the real error, not the first deprecated import', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'redline-javac-lint-'));
    dirs.push(dir);
    const tree = join(dir, 'tree');
    execFileSync('mkdir', [tree]);
    execFileSync('sh', ['-c', `git --git-dir="${repoGit}" archive ${c.failing} | tar -x -C "${tree}"`]);
    const log = join(dir, 'failing.log');
    writeFileSync(log, logText());
    const { diagnosis } = await diagnoseWithTrace({ log, repo: tree });
    const top = diagnosis.findings[0]!;
    expect(`${top.file}:${top.line}`).toBe('src/main/java/org/la4j/matrix/Matrices.java:32');
  }, 120_000);
});
