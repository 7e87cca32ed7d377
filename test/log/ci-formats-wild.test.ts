import { describe, expect, it } from 'vitest';
import { scanLog } from '../../src/log/scan-log.js';
import { openLog } from '../../src/log/open-log.js';
import { findFailingStep } from '../../src/log/find-failing-step.js';

/**
 * The failing step of real logs in fixtures/wild/ whose CI format needed reading right (each folder's
 * label.json names the source and licence). One case per shape the step finder has to handle.
 */
const WILD = new URL('../../fixtures/wild/', import.meta.url);

async function layoutOf(id: string) {
  const scan = await scanLog(openLog(new URL(`${id}/log.txt`, WILD).pathname));
  return { scan, layout: findFailingStep(scan.lines, scan.sections, scan.totalLines) };
}

describe('Travis: a `script:` block whose exit message spans lines (kamilsk/breaker, pasted without markers)', () => {
  it('reads `The command "if …; then` … `fi` / `" exited with 2.` as one exit, owned by the `$ if …` command', async () => {
    const { layout } = await layoutOf('travis-breaker-multiline-command-exit');
    expect(layout.format).toBe('travis');
    expect(layout.failing).toEqual({ name: 'if [[ $TRAVIS_GO_VERSION == 1.15* ]]; then', startLine: 1, endLine: 15, kind: 'user', errorLines: [15], exitCode: 2 });
  });
});

describe('Jenkins freestyle consoles mailed by builder.linuxtv.org', () => {
  it('the `Execute shell` step that `marked build as failure`, from its `$ /bin/sh -xe` line', async () => {
    const { layout } = await layoutOf('jenkins-freestyle-edid-decode-no-makefile');
    expect(layout.format).toBe('jenkins');
    expect(layout.failing).toMatchObject({ name: 'Execute shell', startLine: 31, endLine: 34, kind: 'user', failed: true });
    const meson = await layoutOf('jenkins-freestyle-libcamera-meson-configure');
    expect(meson.layout.failing).toMatchObject({ name: 'Execute shell', startLine: 18, endLine: 58 });
  });

  it('a console whose head Jenkins cut (`[...truncated 9.25 KB...]`): the step is what is left, not `checkout`', async () => {
    const { layout } = await layoutOf('jenkins-freestyle-v4l-utils-gcc-truncated-mail');
    expect(layout.format).toBe('jenkins');
    expect(layout.failing).toMatchObject({ name: 'Execute shell', startLine: 1, endLine: 250, kind: 'user', errorLines: [250] });
  });
});

describe('TeamCity: a build-page copy with the time alone (`[10:50:24][mocha.suite] …`), no step tags (mochajs/mocha#507)', () => {
  it('is TeamCity, and the failing step is the `mocha.suite` block whose process exited with code 2', async () => {
    const { layout } = await layoutOf('teamcity-mocha-suite-exit-2');
    expect(layout.format).toBe('teamcity');
    expect(layout.failing).toEqual({ name: 'mocha.suite', startLine: 4, endLine: 8, kind: 'user', errorLines: [5], exitCode: 2 });
    // `[mocha.suite] Publishing internal artifacts` opens a block inside mocha.suite: not a step of its own.
    expect(layout.steps.map((s) => s.name)).toEqual(['mocha.suite']);
  });
});

describe('Buildkite: a job pasted in Gusto/buildkite-builder#64 (pipeline upload fails)', () => {
  it('the `+++ :pipeline: Uploading pipeline` group, which the agent expanded with `^^^ +++` after `🚨 Error`', async () => {
    const { layout } = await layoutOf('buildkite-builder-pipeline-upload-failed');
    expect(layout.format).toBe('buildkite');
    expect(layout.failing).toMatchObject({ name: ':pipeline: Uploading pipeline', startLine: 39, endLine: 46, kind: 'user', exitCode: 1 });
  });
});

describe('GitLab: pasted tails of job traces, without markers or headings', () => {
  it('a docker build in the script: the step runs up to the runner cleanup, the job error is its exit', async () => {
    const { layout } = await layoutOf('gitlab-openmonero-docker-static-assert');
    expect(layout.format).toBe('gitlab');
    expect(layout.failing).toMatchObject({ name: 'step_script', startLine: 1, endLine: 117, errorLines: [120], exitCode: 2 });
  });

  it('the shell executor says `exit status 1` (not `exit code`): still GitLab, still the exit', async () => {
    const { layout } = await layoutOf('gitlab-runner-git-fetch-pack-shallow');
    expect(layout.format).toBe('gitlab');
    expect(layout.failing).toMatchObject({ startLine: 1, endLine: 3, errorLines: [6], exitCode: 1 });
  });
});

describe('TeamCity service messages recorded from eslint-teamcity (rec-teamcity-eslint-text-table)', () => {
  it('the `ESLint Violations` suite that `##teamcity[testFailed …]` failed, not the statistics after it', async () => {
    const { layout } = await layoutOf('rec-teamcity-eslint-text-table');
    expect(layout.format).toBe('teamcity');
    expect(layout.failing).toEqual({ name: 'ESLint Violations', startLine: 2, endLine: 6, kind: 'user', errorLines: [4], failed: true });
  });
});
