import { describe, expect, it } from 'vitest';
import { scanLog } from '../../src/log/scan-log.js';
import { openLog } from '../../src/log/open-log.js';
import { fetchesSources, findFailingStep } from '../../src/log/find-failing-step.js';
import { jenkinsOwnTraceLines } from '../../src/log/formats/jenkins-own-traces.js';

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

describe('Travis: a command Travis runs without a timer (BugSwarm analyzer logs)', () => {
  it('`jdk_switcher use oraclejdk6`, echoed after the submodule timer closed, owns its own exit line', async () => {
    const { layout } = await layoutOf('travis-bugswarm-gwt-bootstrap-jdk-switcher-eol');
    // Its exit line says `failed and exited with 1 during .`: Travis's word for a set-up phase.
    expect(layout.failing).toEqual({ name: 'jdk_switcher use oraclejdk6', startLine: 71, endLine: 74, kind: 'setup', errorLines: [74], exitCode: 1 });
    // The timed command before it exited 0 and keeps its name.
    expect(layout.steps.find((s) => s.name === 'git submodule update --init --recursive')).toMatchObject({ startLine: 69 });
  });
});

describe("Retry wrappers' notices about their own attempts are never evidence, in any CI", () => {
  it("Travis' `travis_retry` (`… failed. Retrying, 2 of 3.`, `… failed 3 times.`) and rust-lang's `retry` under Azure", async () => {
    const travis = await layoutOf('travis-bugswarm-dozer-maven-codehaus-refused-retried');
    expect([...(travis.layout.runnerLines ?? [])]).toEqual([99, 122, 145]);
    expect(travis.layout.failing).toMatchObject({ startLine: 77, endLine: 149, exitCode: 1 });
    const azure = await layoutOf('azure-rust-71660-cargo-patch-retries');
    expect([...(azure.layout.runnerLines ?? [])]).toEqual([36, 37, 45, 46, 54, 55, 63, 64, 72, 73]);
    expect(azure.layout.lines?.some((l) => l.n === 29)).toBe(true);
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

describe('Jenkins Pipeline consoles committed by the projects themselves', () => {
  it('the console a post action captured before `Finished:`: the checkout stage whose `ERROR: Checkout failed` stopped it (polaris-jenkins-samples)', async () => {
    const { layout } = await layoutOf('jenkins-pipeline-polaris-checkout-not-a-tree');
    expect(layout.format).toBe('jenkins');
    expect(layout.failing).toEqual({ name: 'Declarative: Checkout SCM', startLine: 35, endLine: 103, kind: 'setup', errorLines: [50, 101], failed: true });
  });

  it("a plugin step's tagged `[Security Scan] ERROR: …` fails its stage when no `Finished:` line follows", async () => {
    const { layout } = await layoutOf('jenkins-pipeline-polaris-scan-waiter-exit');
    expect(layout.format).toBe('jenkins');
    expect(layout.failing).toEqual({ name: 'polaris-build-scan', startLine: 149, endLine: 507, kind: 'user', errorLines: [500], failed: true });
    expect(layout.steps.find((s) => s.name === 'Declarative: Post Actions')?.kind).toBe('post');
  });

  it('`ERROR: script returned exit code 1` after the post actions: the last stage that ran (Appigle/ray-8945274-cicd-s25-a3)', async () => {
    const { layout } = await layoutOf('jenkins-pipeline-appigle-sudo-password');
    expect(layout.failing).toEqual({ name: 'Deploy', startLine: 123, endLine: 152, kind: 'user', errorLines: [170], failed: true, exitCode: 1 });
  });

  it('a post condition that threw fails its stage; the stage `skipped due to earlier failure(s)` after it is not a step', async () => {
    const { layout } = await layoutOf('jenkins-pipeline-appigle-post-condition-dsl');
    expect(layout.failing).toMatchObject({ name: 'Test', startLine: 89, endLine: 200, failed: true });
    expect(layout.steps.map((s) => s.name)).not.toContain('Deploy');
  });
});

describe("TeamCity: a newer server's build-page copy (`06:12:42 Step 2/2: …`, the step's lines indented), AlphaHinex's blog", () => {
  it('is TeamCity, and the failing step is the one headed `Step 2/2`, up to `Step … failed`', async () => {
    const { layout } = await layoutOf('teamcity-npm-custom-tool-broken-symlink');
    expect(layout.format).toBe('teamcity');
    expect(layout.failing).toEqual({ name: 'build (1) (Command Line)', startLine: 1, endLine: 31, kind: 'user', errorLines: [29, 30, 31], exitCode: 1, failed: true });
  });
});

describe('Azure Pipelines: rust-lang/rust jobs excerpted by its CI bot (`---` where lines were cut)', () => {
  it('`##[section]Finishing: Run build` with no `Starting:` line left: the step runs from the cut after the checkout to its finish', async () => {
    const { layout } = await layoutOf('azure-rust-73928-mingw-check-e0658');
    expect(layout.format).toBe('azure');
    expect(layout.failing).toEqual({ name: 'Run build', startLine: 45, endLine: 81, kind: 'user', errorLines: [80], exitCode: 1 });
    expect(layout.steps.filter((s) => s.kind === 'setup').map((s) => s.name)).toContain('Initialize job');
  });

  it('the same with the agent timestamps on every line', async () => {
    const { layout } = await layoutOf('azure-rust-68435-toolstate-clippy');
    expect(layout.format).toBe('azure');
    expect(layout.failing).toEqual({ name: 'Run build', startLine: 16, endLine: 30, kind: 'user', errorLines: [29], exitCode: 1 });
  });
});

describe('GitLab: job-trace tails pasted in tutorials and notes', () => {
  it('`Cleaning up project directory and file based variables` is the cleanup, not the step (Ghostwritten/docker-docs)', async () => {
    const { layout } = await layoutOf('gitlab-docker-docs-buildx-tls-context');
    expect(layout.format).toBe('gitlab');
    expect(layout.failing).toEqual({ name: 'step_script', startLine: 1, endLine: 2, kind: 'user', errorLines: [5], exitCode: 1 });
  });

  it('a job that failed while getting the sources: the failing step is `get_sources` (awesomenmi/demo_project)', async () => {
    const { layout } = await layoutOf('gitlab-demo-project-get-sources-not-a-repo');
    expect(layout.failing).toEqual({ name: 'get_sources', startLine: 1, endLine: 9, kind: 'setup', errorLines: [9], exitCode: 1 });
  });
});

describe("Buildkite: a command's output pasted without its group header (mitchbne/buildkite-multistep-upload)", () => {
  it('the step is everything up to `🚨 Error: The command exited with status 1`, from the first line', async () => {
    const { layout } = await layoutOf('buildkite-multistep-upload-processing');
    expect(layout.format).toBe('buildkite');
    expect(layout.failing).toEqual({ name: 'job', startLine: 1, endLine: 31, kind: 'user', errorLines: [31], exitCode: 1 });
  });
});

describe('TeamCity service messages recorded from mocha-teamcity-reporter on flat 5.0.2 (rec-teamcity-mocha-flat-max-depth)', () => {
  it("the `Flatten` suite whose `##teamcity[testFailed name='Custom Depth' …]` failed it, not a suite before or after it", async () => {
    const { layout } = await layoutOf('rec-teamcity-mocha-flat-max-depth');
    expect(layout.format).toBe('teamcity');
    expect(layout.failing).toEqual({ name: 'Flatten', startLine: 29, endLine: 51, kind: 'user', errorLines: [45], failed: true });
    expect(layout.steps.map((s) => s.name)).toContain('Unflatten Primitives');
  });
});

describe("Jenkins' own stack traces are the runner's lines, not evidence (formats' runnerLines)", () => {
  it('a failed `Declarative: Checkout SCM`: the git plugin and remoting frames are left out, the message above them kept (polaris-jenkins-samples)', async () => {
    const { layout } = await layoutOf('jenkins-pipeline-polaris-checkout-not-a-tree');
    const own = layout.runnerLines!;
    // `at PluginClassLoader for git-client//…`, `Also:   hudson.remoting.Channel$CallSiteStackTrace`, `Caused: java.io.IOException`.
    for (const n of [55, 56, 57, 58, 62, 77, 81, 90, 100]) expect(own.has(n)).toBe(true);
    // `ERROR: Checkout failed`, the GitException that carries git's words, `stderr: fatal: reference is not a tree`, the retry error.
    for (const n of [50, 51, 53, 101]) expect(own.has(n)).toBe(false);
    const read = new Set(layout.lines!.map((l) => l.n));
    expect(read.has(58)).toBe(false);
    expect(read.has(53)).toBe(true);
  });

  it("a Pipeline script's error: the CPS interpreter's frames are Jenkins', the `WorkflowScript:38` frame (the Jenkinsfile) is the project's (Appigle)", async () => {
    const { layout } = await layoutOf('jenkins-pipeline-appigle-post-condition-dsl');
    const own = layout.runnerLines!;
    expect(own.has(117)).toBe(true); // at PluginClassLoader for workflow-cps//org.jenkinsci.plugins.workflow.cps.DSL.invokeMethod
    expect(own.has(121)).toBe(true); // at org.codehaus.groovy.reflection.CachedMethod.invoke, called by Jenkins
    expect(own.has(137)).toBe(true); // at org.jenkinsci.plugins.pipeline.modeldefinition.ModelInterpreter…
    expect(own.has(136)).toBe(false); // at WorkflowScript.run(WorkflowScript:38)
    expect(own.has(116)).toBe(false); // java.lang.NoSuchMethodError: No such DSL method 'publishTestResults' …
  });

  it("a project's own Java trace (no Jenkins frame: a Maven test run on Actions) is not the runner's", async () => {
    const { scan } = await layoutOf('gha-maven-2397394521');
    // The same lines without the Actions timestamp, as a Jenkins console would print them.
    const lines = scan.lines.map((l) => ({ n: l.n, text: l.text.replace(/^\d{4}-\d\d-\d\dT[\d:.]+Z /, '') }));
    expect(lines.some((l) => /^\s*at [\w.$]+\(\w+\.java:\d+\)/.test(l.text))).toBe(true);
    expect(jenkinsOwnTraceLines(lines)).toEqual([]);
  });
});

describe("the CI's own checkout step, by the format's step identity (fetchesSources)", () => {
  it("Jenkins' `Declarative: Checkout SCM` and GitLab's `get_sources` fetch the sources; a stage of the project's does not", async () => {
    expect(fetchesSources((await layoutOf('jenkins-pipeline-polaris-checkout-not-a-tree')).layout.failing!)).toBe(true);
    expect(fetchesSources((await layoutOf('gitlab-demo-project-get-sources-not-a-repo')).layout.failing!)).toBe(true);
    const deploy = (await layoutOf('jenkins-pipeline-appigle-sudo-password')).layout.failing!;
    expect(deploy.name).toBe('Deploy');
    expect(fetchesSources(deploy)).toBe(false);
  });
});

describe('GitLab: a job that failed in a runner set-up section, before any script ran (issue 14, CI batch p17)', () => {
  it('`fatal: shallow file has changed` under `Getting source from Git repository` is get_sources, not a script', async () => {
    const { layout } = await layoutOf('gitlab-godot-ci-shallow-file-changed');
    expect(layout.format).toBe('gitlab');
    expect(layout.failing).toMatchObject({ name: 'get_sources', startLine: 10, endLine: 14, kind: 'setup', errorLines: [17], exitCode: 1 });
    expect(fetchesSources(layout.failing!)).toBe(true);
  });

  it("`Job failed: prepare environment: exit code 255` is the runner's `Preparing environment`, its set-up", async () => {
    const { layout } = await layoutOf('gitlab-terraform-runner-prepare-environment-255');
    expect(layout.failing).toMatchObject({ name: 'prepare_script', startLine: 8, endLine: 10, kind: 'setup', errorLines: [10] });
    expect(fetchesSources(layout.failing!)).toBe(true);
    // The copied headings and the duration under each are the runner's, never evidence.
    expect([...(layout.runnerLines ?? [])]).toEqual([3, 4, 8, 9]);
  });

  it('a tail whose only headings are the clean-up ones still puts the error in the script above them', async () => {
    const { layout } = await layoutOf('gitlab-docker-docs-push-missing-tag');
    expect(layout.failing).toMatchObject({ name: 'step_script', startLine: 1, kind: 'user' });
  });
});

describe('Jenkins: a Pipeline whose Jenkinsfile did not compile shows no stage (jack-snake123/ansible-ex)', () => {
  it('after `Obtained … from git` the console is the pipeline script, a user step, not the SCM checkout', async () => {
    const { layout } = await layoutOf('jenkins-pipeline-ansible-ex-duplicate-stage-name');
    expect(layout.format).toBe('jenkins');
    expect(layout.failing).toMatchObject({ name: 'pipeline script', startLine: 3, kind: 'user' });
    expect(fetchesSources(layout.failing!)).toBe(false);
    expect(layout.steps.find((s) => s.name === 'checkout')).toMatchObject({ startLine: 1, endLine: 2 });
  });
});

describe('Jenkins: a Pipeline console that ends inside a stage (cloudbees/cloudbees-examples#9, pasted mid-run)', () => {
  it('the stage still open where the console stops is the failing one', async () => {
    const { layout } = await layoutOf('jenkins-pipeline-cloudbees-examples-maven-no-pom');
    expect(layout.format).toBe('jenkins');
    expect(layout.failing).toMatchObject({ name: 'Build', startLine: 8, endLine: 21, kind: 'user', failed: true });
  });
});
