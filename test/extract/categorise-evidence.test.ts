import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import type { Block } from '../../src/evidence/index.js';

/**
 * The category from the evidence (issue 14), on real logs only: fixtures/wild/ (each folder's label.json
 * names its source and licence) and fixtures/ci-formats/ (its README).
 */
const wild = (name: string) => new URL(`../../fixtures/wild/${name}/log.txt`, import.meta.url).pathname;
const ci = (name: string) => new URL(`../../fixtures/ci-formats/${name}`, import.meta.url).pathname;

/** A generic block over real log lines [start, end] (1-based), and the text it quotes. */
function blocksOf(path: string, ranges: [number, number][]) {
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: Block[] = ranges.map(([start, end], i) => ({ start, end, header: start, kind: 'error', score: 1 - i / 10, why: [], source: 'generic' }));
  return { blocks, textOf: (b: Block) => lines.slice(b.start - 1, b.end).join('\n') };
}

describe('infra only when infra ended the step (the module, on real excerpts)', () => {
  const hivemall = ci('travis-bugswarm-hivemall-maven-warning.log');
  it('hivemall: Maven `Could not transfer metadata … Name or service not known`, then a JUnit error the step ended on: not infra', () => {
    const { blocks, textOf } = blocksOf(hivemall, [[442, 442], [1481, 1482]]);
    expect(textOf(blocks[0]!)).toMatch(/Name or service not known$/);
    expect(categoriseEvidence({ matched: 'unknown', signals: [], blocks, textOf })).toBe('test');
  });
  it('the same resolver line, when it is the last thing the step printed: infra', () => {
    const { blocks, textOf } = blocksOf(hivemall, [[442, 442]]);
    expect(categoriseEvidence({ matched: 'unknown', signals: [], blocks, textOf })).toBe('infra');
  });
});

describe('the category from the evidence blocks, when no matcher gave one (real logs, whole pipeline)', () => {
  const cases: [string, string, string][] = [
    ['git cannot reach its remote (`Failed to connect … Couldn\'t connect to server`), the step\'s last error', 'rec-gha-git-clone-refused', 'infra'],
    ['git clone `Authentication failed` (validator, Travis)', 'travis-bugswarm-validator-clone-auth', 'infra'],
    ['Maven `could not be resolved` whose cause is `hostname in certificate didn\'t match` (bugsnag-android, Travis)', 'travis-bugswarm-bugsnag-android-2.1', 'infra'],
    ['rvm asks for `rvm reload` (recyclerview-animators, Travis)', 'travis-bugswarm-recyclerview-animators-rvm-reload', 'infra'],
    ['wget `ERROR 403: Forbidden`, then tar `Cannot open` and ant (intellij-elixir, Travis)', 'travis-bugswarm-intellij-elixir-wget-403-ant', 'dependency'],
    ['tar `Cannot open` of a download, then the script that needed it (tajo, Travis)', 'travis-bugswarm-tajo-protobuf-download', 'dependency'],
    ['`Error installing fpm` / `Failed to build gem native extension` (syncany, Travis)', 'travis-bugswarm-syncany-gem-native-ext', 'dependency'],
    ['snyk: `Critical severity vulnerability found in …` (CircleCI)', 'circleci-network-device-inventory-snyk', 'dependency'],
    ['ant `Target "test" does not exist in the project` (idea-gitignore, Travis)', 'travis-bugswarm-idea-gitignore-ant-no-target', 'compile'],
    ['ant `Buildfile: build.xml does not exist!` (cas-addons, Travis)', 'travis-bugswarm-cas-addons-no-build-xml', 'compile'],
    ['`Could not find or load main class org.gradle.wrapper.GradleWrapperMain` (RxAndroid, Travis)', 'travis-bugswarm-rxandroid-gradlew-wrapper-main', 'compile'],
    ['py_compile `SyntaxError` under a traceback (frames alone said test)', 'rec-python-py-compile-syntax', 'compile'],
    ['rust tidy `line longer than 100 chars` (Azure)', 'azure-rust-72029-tidy-line-length', 'lint'],
    ['rustfmt `Diff in src/lib.rs:1:` (cargo fmt --check)', 'rec-cargo-fmt-check', 'lint'],
    ["Jenkins' `Declarative: Checkout SCM` fails `fatal: reference is not a tree` (polaris-jenkins-samples): the runner's checkout", 'jenkins-pipeline-polaris-checkout-not-a-tree', 'infra'],
    ["GitLab's `get_sources`: `does not appear to be a git repository` / `Could not read from remote repository`", 'gitlab-demo-project-get-sources-not-a-repo', 'infra'],
    ['git `fetch-pack: expected shallow list` / `The remote end hung up unexpectedly` (gitlab-runner)', 'gitlab-runner-git-fetch-pack-shallow', 'infra'],
    ["`sudo: a password is required` on the Jenkins agent (Appigle): the agent's account, not the project", 'jenkins-pipeline-appigle-sudo-password', 'infra'],
    ["a Jenkinsfile's `No such DSL method 'publishTestResults'` (Appigle): the pipeline script is broken", 'jenkins-pipeline-appigle-post-condition-dsl', 'compile'],
  ];
  for (const [what, name, want] of cases)
    it(`${what}: ${want}`, async () => {
      const d = await diagnose({ log: wild(name) });
      expect(d.category).toBe(want);
      if (want === 'infra') expect(d.findings).toEqual([]);
    });
});

describe("a checkout failure is infra only in the CI's own checkout step (issue 14 part 4)", () => {
  const polaris = wild('jenkins-pipeline-polaris-checkout-not-a-tree');
  // `ERROR: Checkout failed` … `stderr: fatal: reference is not a tree: 91f9657…`, then the retry error.
  const { blocks, textOf } = blocksOf(polaris, [[50, 53], [101, 101]]);
  it('in the runner\'s checkout step: infra', () => {
    expect(categoriseEvidence({ matched: 'unknown', signals: [], blocks, textOf, stepName: 'Declarative: Checkout SCM', sourceFetch: true })).toBe('infra');
  });
  it("the same git words in a step of the project's own (its script ran `git checkout`): not infra", () => {
    expect(categoriseEvidence({ matched: 'unknown', signals: [], blocks, textOf, stepName: 'Build' })).not.toBe('infra');
  });
});

describe('a dependency error the step survived is not the cause (classify.ts)', () => {
  it('pip cannot find `pytest-timeout` (`No matching distribution`), then unittest fails `test_isleap` at its line: test', async () => {
    const d = await diagnose({ log: wild('rec-gha-pip-index-refused-then-test') });
    expect(d.category).toBe('test');
  });
});
