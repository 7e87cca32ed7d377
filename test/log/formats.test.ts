import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { scanLog } from '../../src/log/scan-log.js';
import { openLog } from '../../src/log/open-log.js';
import { findFailingStep } from '../../src/log/find-failing-step.js';
import { FORMATS, detectFormat } from '../../src/log/formats/index.js';
import { cleanText } from '../../src/log/clean.js';

/** Real logs of each CI (fixtures/ci-formats/README.md: sources, licences), read as the CLI reads a file. */
const FORMATS_DIR = new URL('../../fixtures/ci-formats/', import.meta.url);
const path = (name: string) => new URL(name, FORMATS_DIR).pathname;

async function layoutOf(name: string) {
  const scan = await scanLog(openLog(path(name)));
  const at = (n: number) => scan.lines[n - 1]!.text;
  return { scan, at, layout: findFailingStep(scan.lines, scan.sections, scan.totalLines) };
}

describe('format detection: each real log is its own CI and no other', () => {
  const cases: [string, string][] = [
    ['travis-bugswarm-113007194.log', 'travis'],
    ['travis-bugswarm-299944105.log', 'travis'],
    ['travis-bugswarm-581212464.log', 'travis'],
    ['travis-bugswarm-spring-cloud-config-unknown-host.log', 'travis'],
    ['travis-rust-time-limit-excerpt.log', 'travis'],
    ['gitlab-trace-with-sections.log', 'gitlab'],
    ['actions-continue-on-error/log.txt', 'github-actions'],
    ['azure-rust-71780-excerpt.log', 'azure'],
    ['jenkins-pipeline-skipped-stages.log', 'jenkins'],
    ['jenkins-pipeline-post-actions.log', 'jenkins'],
    ['jenkins-freestyle-xawtv4-24.log', 'jenkins'],
    ['circleci-ui-copy.log', 'circleci'],
    ['buildkite-bash-example.log', 'buildkite'],
    ['teamcity-mocha/log.txt', 'teamcity'],
    ['drone-exec-noproxy-broken.log', 'drone'],
    ['drone-exec-go-client.log', 'drone'],
  ];
  for (const [name, ci] of cases) {
    it(`${name} → ${ci}`, async () => {
      const scan = await scanLog(openLog(path(name)));
      const input = { lines: scan.lines, sections: scan.sections, totalLines: scan.totalLines };
      expect(detectFormat(input).id).toBe(ci);
      // The winner is clear: no other format is as sure.
      const others = FORMATS.filter((f) => f.id !== ci).map((f) => f.detect(input));
      expect(Math.max(...others)).toBeLessThan(detectFormat(input).detect(input));
      // detectFormat stops early on the ceilings: no detector may score above its own.
      for (const f of FORMATS) expect(f.detect(input)).toBeLessThanOrEqual(f.ceiling);
    });
  }
});

describe('Travis: the command that exited non-zero, not the last command', () => {
  it('paramiko (BugSwarm 299944105): `inv coverage` exited 1; `inv sites` and `flake8` ran after it and passed; cache.2 is post', async () => {
    const { layout, at } = await layoutOf('travis-bugswarm-299944105.log');
    expect(layout.format).toBe('travis');
    const f = layout.failing!;
    expect(f.name).toBe('inv coverage');
    expect(f.exitCode).toBe(1);
    expect(at(f.errorLines[0]!)).toBe('The command "inv coverage" exited with 1.');
    expect(f.endLine).toBe(f.errorLines[0]);
    const later = layout.steps.filter((s) => s.startLine > f.endLine);
    expect(later.map((s) => [s.name, s.exitCode ?? null])).toEqual(expect.arrayContaining([['inv sites', 0], ['flake8', 0]]));
    expect(layout.steps.find((s) => s.name === 'cache.2')!.kind).toBe('post');
    expect(layout.steps.find((s) => s.name === 'cache.1')!.kind).toBe('setup');
  });

  it('stagemonitor (BugSwarm 581212464): `./gradlew test` exited 1; the after_failure commands after it are post', async () => {
    const { layout } = await layoutOf('travis-bugswarm-581212464.log');
    const f = layout.failing!;
    expect(f.name).toBe('./gradlew test');
    expect(f.kind).toBe('user');
    expect(f.exitCode).toBe(1);
    const afterFailure = layout.steps.find((s) => s.name === 'after_failure')!;
    expect(afterFailure.kind).toBe('post');
    const inside = layout.steps.filter((s) => s.startLine > afterFailure.startLine && s.startLine < afterFailure.endLine);
    expect(inside.length).toBeGreaterThan(0);
    for (const s of inside) expect(s.kind).toBe('post');
  });
});

describe('Travis: an install-phase command, a job without markers', () => {
  it('spring-cloud-config (BugSwarm): `The command "mvn install …" failed and exited with 1 during .` fails its install step', async () => {
    const { layout, at } = await layoutOf('travis-bugswarm-spring-cloud-config-unknown-host.log');
    const f = layout.failing!;
    expect(f.name).toMatch(/^mvn install -P docs /);
    expect(f.kind).toBe('setup');
    expect(f.exitCode).toBe(1);
    expect(at(f.errorLines[0]!)).toMatch(/^The command "mvn install .*" failed and exited with 1 during \.$/);
  });

  it('a rust-lang/rust excerpt that kept no markers: the whole job, ended by `The job exceeded the maximum time limit`', async () => {
    const { layout, at, scan } = await layoutOf('travis-rust-time-limit-excerpt.log');
    expect(layout.format).toBe('travis');
    expect(layout.failing).toMatchObject({ name: 'job', startLine: 1, endLine: scan.totalLines, failed: true });
    expect(at(layout.failing!.errorLines[0]!)).toBe('The job exceeded the maximum time limit for jobs, and has been terminated.');
  });
});

describe('Azure Pipelines: rust-lang/rust PR 71780 (a bot\'s excerpt of the job log)', () => {
  it('the task whose Bash exited 2, named by its Finishing line (its Starting was cut from the excerpt); the credential cleanup and Finalize Job after it are not the cause', async () => {
    const { layout, at } = await layoutOf('azure-rust-71780-excerpt.log');
    expect(layout.format).toBe('azure');
    const f = layout.failing!;
    expect(f.name).toBe('Install awscli');
    expect(f.exitCode).toBe(2);
    expect(at(f.errorLines[0]!)).toBe("##[error]Bash exited with code '2'.");
    // Its lines hold the tar error, not the checkout's git commands before it.
    const body = Array.from({ length: f.endLine - f.startLine + 1 }, (_, i) => at(f.startLine + i));
    expect(body).toContain('tar: Error is not recoverable: exiting now');
    expect(body.some((t) => t.startsWith('##[command]git'))).toBe(false);
    expect(layout.steps.map((s) => s.name)).toContain('Checkout rust-lang/rust@refs/pull/71780/merge to s');
  });
});

describe('Jenkins pipelines (jonatangg10/terraform-jenkins-azure, pasted console output)', () => {
  it('later stages "skipped due to earlier failure(s)": the stage that ran and failed, with the script exit printed after End of Pipeline', async () => {
    const { layout, at } = await layoutOf('jenkins-pipeline-skipped-stages.log');
    expect(layout.format).toBe('jenkins');
    expect(layout.steps.map((s) => s.name)).toEqual(['Azure Login']);
    const f = layout.failing!;
    expect(f.name).toBe('Azure Login');
    expect(f.exitCode).toBe(1);
    // cleanLine strips the Timestamper prefix (`23:26:07  `): the lines read as the tool printed them.
    expect(f.errorLines.map(at)).toEqual(['ERROR: No subscriptions found for ****.', 'ERROR: script returned exit code 1']);
  });

  it('a failing stage and then Declarative: Post Actions whose own `az logout` errors: the stage, never the post actions', async () => {
    const { layout } = await layoutOf('jenkins-pipeline-post-actions.log');
    expect(layout.steps.map((s) => [s.name, s.kind])).toEqual([['Print Azure Credentials', 'user'], ['Declarative: Post Actions', 'post']]);
    expect(layout.failing!.name).toBe('Print Azure Credentials');
    expect(layout.steps[1]!.errorLines).toEqual([]);
  });
});

describe('Jenkins freestyle (linuxtv.org builder, xawtv4 #24, console output from its failure mail)', () => {
  it('the checkout is setup, `$ /bin/sh -xe /tmp/jenkins….sh` is the build step that "marked build as failure"', async () => {
    const { layout, at } = await layoutOf('jenkins-freestyle-xawtv4-24.log');
    expect(layout.format).toBe('jenkins');
    expect(layout.steps.map((s) => [s.name, s.kind])).toEqual([['checkout', 'setup'], ["Execute shell", 'user']]);
    const f = layout.failing!;
    expect(f.name).toBe('Execute shell');
    expect(at(f.startLine)).toBe('[xawtv4] $ /bin/sh -xe /tmp/jenkins1040565992860801892.sh');
    expect(at(f.endLine)).toBe("Build step 'Execute shell' marked build as failure");
    expect(at(f.endLine - 1)).toMatch(/^make: \*\*\* No rule to make target/);
  });
});

describe('Buildkite (buildkite/buildkite-logs testdata/bash-example.log: a real raw job log, passing)', () => {
  const raw = readFileSync(path('buildkite-bash-example.log'), 'utf8');
  const layoutOfText = (text: string) => {
    const lines = cleanText(text);
    return { lines, layout: findFailingStep(lines, [], lines.length) };
  };

  it('the agent\'s `\\x1b_bk;t=…\\x07` timestamps are cleaned away; hooks and checkout are setup, post-command / artifacts / pre-exit are post; nothing failed', async () => {
    const { layout, at } = await layoutOf('buildkite-bash-example.log');
    expect(layout.format).toBe('buildkite');
    expect(at(1)).toBe('~~~ Running global environment hook');
    expect(layout.steps.map((s) => [s.name, s.kind])).toEqual([
      ['Running global environment hook', 'setup'],
      ['Running global pre-checkout hook', 'setup'],
      ['Preparing working directory', 'setup'],
      ['Running global pre-command hook', 'setup'],
      ['Running local pre-command hook', 'setup'],
      ['Running script', 'user'],
      [':package: Build job checkout directory', 'user'],
      [':evergreen_tree: Build job environment', 'user'],
      [':hammer: Example tests', 'user'],
      [':frame_with_picture: Inline image uploaded as a build artifact', 'user'],
      ['Running local post-command hook', 'post'],
      ['Uploading artifacts', 'post'],
      ['Running global pre-exit hook', 'post'],
    ]);
    expect(layout.failing).toBeNull();
  });

  // Derived failing jobs: the real log with the agent's own failure lines put where the agent prints them
  // (the command's exit before the post-command hook; a script's `^^^ +++` in the group that failed).
  const rawLines = raw.split('\n');
  const at = (re: RegExp) => rawLines.findIndex((l) => re.test(l));

  it('derived: `🚨 Error: The command exited with status 1` before the post-command hook fails the group that was running', () => {
    const i = at(/Running local post-command hook/);
    const text = [...rawLines.slice(0, i), '🚨 Error: The command exited with status 1', ...rawLines.slice(i)].join('\n');
    const { layout } = layoutOfText(text);
    expect(layout.failing).toMatchObject({ name: ':frame_with_picture: Inline image uploaded as a build artifact', exitCode: 1 });
  });

  it('derived: a script printed `^^^ +++` in the test group: that group failed, the groups after it ran after the failure', () => {
    const tests = at(/\+\+\+ :hammer: Example tests/);
    const next = at(/\+\+\+ :frame_with_picture:/);
    const post = at(/Running local post-command hook/);
    const text = [...rawLines.slice(0, next), '^^^ +++', ...rawLines.slice(next, post), '🚨 Error: The command exited with status 1', ...rawLines.slice(post)].join('\n');
    const { layout } = layoutOfText(text);
    expect(tests).toBeGreaterThan(0);
    expect(layout.failing).toMatchObject({ name: ':hammer: Example tests', exitCode: 1, failed: true });
    expect(layout.steps.find((s) => s.name.startsWith(':frame_with_picture:'))!.kind).toBe('post');
  });
});

describe('CircleCI (alvis1595/ecs error.js: two steps copied from the job page)', () => {
  it('each `#!/bin/bash -eo pipefail` is a step named above its chrome; the first failed step is the cause', async () => {
    const { layout, at } = await layoutOf('circleci-ui-copy.log');
    expect(layout.format).toBe('circleci');
    expect(layout.steps.map((s) => s.name)).toEqual(['run', 'Install AWS cli ☁️ 📦']);
    for (const s of layout.steps) expect(s.exitCode).toBe(1);
    const f = layout.failing!;
    expect(f).toBe(layout.steps[0]);
    expect(f.errorLines.map(at)).toEqual(['Exited with code exit status 1', 'CircleCI received exit code 1']);
  });
});

describe('TeamCity service messages (mocha-teamcity-reporter, recorded)', () => {
  it('the test suite is the step; testFailed marks it failed', async () => {
    const { layout, at } = await layoutOf('teamcity-mocha/log.txt');
    expect(layout.format).toBe('teamcity');
    expect(layout.steps.map((s) => s.name)).toEqual(['slug']);
    const f = layout.failing!;
    expect(f.name).toBe('slug');
    expect(at(f.errorLines[0]!)).toMatch(/^##teamcity\[testFailed name='folds accents'/);
  });
});

describe('Drone / Woodpecker CLI (`[step:Ln:Ns]` lines, pasted in READMEs of public projects)', () => {
  it('drone 0.8 exec (davidkazuhiro/docker-drone-noproxy): `drone_step_0 : exit code 1` fails the step whose output came last', async () => {
    const { layout, at } = await layoutOf('drone-exec-noproxy-broken.log');
    expect(layout.format).toBe('drone');
    expect(layout.steps.map((s) => [s.name, s.startLine, s.endLine])).toEqual([['publish', 2, 4]]);
    const f = layout.failing!;
    expect(f).toMatchObject({ name: 'publish', kind: 'user', exitCode: 1 });
    expect(f.errorLines.map(at)).toEqual(['2018/06/22 20:16:04 drone_step_0 : exit code 1']);
  });

  it('the `[publish:L1:1s] ` prefix names the step; the lines a person reads (layout.lines) have it cut, same numbers', async () => {
    const { layout, scan } = await layoutOf('drone-exec-noproxy-broken.log');
    expect(scan.lines[2]!.text).toMatch(/^\[publish:L1:1s\] time=/);
    expect(layout.lines!.map((l) => [l.n, l.text])).toEqual([
      [1, '$ drone exec broken.drone.yml'],
      [2, '+ /usr/local/bin/dockerd -g /var/lib/docker'],
      [3, 'time="2018-06-22T11:16:12Z" level=fatal msg="Error authenticating: exit status 1"'],
      [4, '2018/06/22 20:16:04 drone_step_0 : exit code 1'],
    ]);
  });

  it('formats without a per-line prefix hand back no rewritten lines', async () => {
    expect((await layoutOf('travis-bugswarm-113007194.log')).layout.lines).toBeUndefined();
    // A Pipeline console's lines come back with Jenkins' bookkeeping left out (its `[Pipeline]` markers,
    // skipped-stage notices, echo output), every other line as it was.
    const { scan, layout } = await layoutOf('jenkins-pipeline-skipped-stages.log');
    const kept = layout.lines!;
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((l) => l.text === scan.lines[l.n - 1]!.text)).toBe(true);
    expect(kept.some((l) => l.text.startsWith('[Pipeline] ') || /^Stage ".+" skipped due to/.test(l.text))).toBe(false);
    expect(kept.length + layout.runnerLines!.size).toBe(scan.lines.length);
  });

  it('drone 0.5 exec (cp2017/go-client): a service and two steps, `[unit-test] exit code 0` passed, nothing failed', async () => {
    const { layout } = await layoutOf('drone-exec-go-client.log');
    expect(layout.format).toBe('drone');
    expect(layout.steps.map((s) => [s.name, s.startLine, s.endLine, s.exitCode])).toEqual([
      ['testhttpd', 2, 2, undefined],
      ['unit-test', 3, 24, 0],
      ['smoke-test', 25, 38, undefined],
    ]);
    expect(layout.failing).toBeNull();
  });
});

describe('excerpts that cut the failing step\'s start (fixtures/wild/, real logs)', () => {
  const wild = (id: string) => `../wild/${id}/log.txt`;

  it('Azure (rust-lang/rust PR 66716, bot excerpt): the exit with no open task is a step from the last runner line on, not one line', async () => {
    const { layout, at } = await layoutOf(wild('azure-rust-66716-cargo-patch'));
    expect(layout.format).toBe('azure');
    expect(layout.failing).toMatchObject({ name: 'job', startLine: 6, endLine: 19, exitCode: 1 });
    expect(at(6)).toBe('---');
    expect(at(8)).toMatch(/^error: failed to resolve patches/);
  });

  it('CircleCI (lyes-s/network-device-inventory, step copied from the job page): the step runs from the top to its exit lines', async () => {
    const { layout, at } = await layoutOf(wild('circleci-network-device-inventory-snyk'));
    expect(layout.format).toBe('circleci');
    expect(layout.failing).toMatchObject({ startLine: 1, endLine: 35, exitCode: 1 });
    expect(layout.failing!.errorLines.map(at)).toEqual(['Exited with code exit status 1', 'CircleCI received exit code 1']);
  });

  it('GitLab (qemu pipeline 375324015, six lines quoted in a mail): a tail with only the cleanup heading is GitLab; the script is above it', async () => {
    const { layout, at } = await layoutOf(wild('gitlab-qemu-test-replication-excerpt'));
    expect(layout.format).toBe('gitlab');
    expect(layout.steps.map((s) => [s.name, s.startLine, s.endLine, s.kind])).toEqual([
      ['step_script', 1, 4, 'user'],
      ['cleanup_file_variables', 5, 6, 'post'],
    ]);
    expect(layout.failing).toMatchObject({ name: 'step_script', exitCode: 1 });
    expect(at(layout.failing!.errorLines[0]!)).toBe('ERROR: Job failed: exit code 1');
  });
});

describe('plain pasted output', () => {
  it('a pasted tool log with no CI frame has no steps', () => {
    const lines = cleanText(readFileSync(new URL('../../fixtures/logs/go-test-assertion/log.txt', import.meta.url), 'utf8'));
    expect(findFailingStep(lines, [], lines.length)).toEqual({ format: 'plain', steps: [], failing: null });
  });
});

describe('Travis install-phase failures and travis_retry (fixtures/wild/travis-bugswarm-*, real BugSwarm logs)', () => {
  const wild = (id: string) => `../wild/${id}/log.txt`;

  it('a command retried 3 times (`The command "eval X" failed. Retrying, 2 of 3.`) is one step, ended by its `failed and exited with 1 during .`', async () => {
    for (const id of ['travis-bugswarm-sagan-gradlew-jvm-memory-retried', 'travis-bugswarm-stubby4j-gradle-property-retried', 'travis-bugswarm-gradle-wrapper-dist-404-retried']) {
      const { layout, at, scan } = await layoutOf(wild(id));
      expect(layout.format).toBe('travis');
      const f = layout.failing!;
      expect(f.exitCode, id).toBe(1);
      expect(f.errorLines.map(at), id).toEqual([expect.stringMatching(/^The command "(?:\.\/gradlew|gradle) assemble" failed and exited with 1 during \.$/)]);
      // The retries' own `failed. Retrying` lines are inside the step, not steps of their own.
      const retries = scan.lines.filter((l) => /^The command "eval .*" failed\. Retrying, \d of 3\.$/.test(l.text)).map((l) => l.n);
      expect(retries.length, id).toBe(2);
      for (const n of retries) expect(n > f.startLine && n < f.endLine, id).toBe(true);
    }
  });

  it('an install command that fails is the failing step, though Travis prints no `script` phase after it', async () => {
    const cases: [string, string][] = [
      ['travis-bugswarm-openstack-sdk-maven-unknown-host', 'mvn clean package -DskipTests=true'],
      ['travis-bugswarm-tajo-protobuf-download', './dev-support/travis-install-dependencies.sh'],
      ['travis-bugswarm-samoa-gradle-install-property', 'gradle wrapper'],
      ['travis-bugswarm-recyclerview-animators-rvm-reload', 'rvm use default'],
    ];
    for (const [id, name] of cases) {
      const { layout } = await layoutOf(wild(id));
      expect(layout.failing, id).toMatchObject({ name, exitCode: id.includes('tajo') ? 2 : 1 });
    }
  });
});
