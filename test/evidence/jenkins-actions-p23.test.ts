import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { relayedMavenOutput } from '../../src/evidence/restated-annotations.js';
import { isConsequence } from '../../src/evidence/vocabulary.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Issue 14's Jenkins and Actions round of session 31 (helper p23jen): rules on the failing step and on what is
 * quoted, each on the real log that showed it (fixtures/wild/, each label.json names its source). The logs are
 * read from the mirrors `fetch` brought (not committed): without them these tests are skipped.
 */
const evidenceOf = async (id: string) => (await diagnose({ log: wildLog(id) })).evidence.map((e) => e.line);

const CUCUMBER = 'jenkins-freestyle-cucumber-htmlpublisher-copy';

describe.skipIf(!hasWildLog(CUCUMBER))("a post-build publisher that changed the build's result to FAILURE", () => {
  it("is the failing step, from its own lines to its notice (before: the whole console, read as the checkout)", async () => {
    const d = await diagnose({ log: wildLog(CUCUMBER) });
    const first = wildLineNo(CUCUMBER, /^\[htmlpublisher\] Archiving HTML reports/);
    const notice = wildLineNo(CUCUMBER, /^Build step 'Publish HTML reports' changed build result to FAILURE$/);
    expect(d.failingStep).toMatchObject({ name: 'Publish HTML reports', startLine: first, endLine: notice });
  });

  it("quotes the publisher's `ERROR:` lines, not its notice", async () => {
    const lines = await evidenceOf(CUCUMBER);
    expect(lines).toEqual([wildLineNo(CUCUMBER, /^ERROR: Directory '.*' exists but failed copying/), wildLineNo(CUCUMBER, /^ERROR: This is especially strange/)]);
    expect(isConsequence("Build step 'Publish HTML reports' changed build result to FAILURE")).toBe(true);
    expect(isConsequence('Set result to FAILURE')).toBe(true);
  });
});

const SAKULI = 'jenkins-freestyle-sakuli-release-artifact-missing';

describe.skipIf(!hasWildLog(SAKULI))("a nested Maven build's output relayed under `[ERROR] ` by the plugin that ran it", () => {
  it('is a restatement: the first print of the failure is quoted (before: 40 lines of the relayed copy, P 0)', async () => {
    const lines = await evidenceOf(SAKULI);
    const goal = wildLineNo(SAKULI, /^\[ERROR\] Failed to execute goal org\.apache\.maven\.plugins:maven-dependency-plugin:2\.8:unpack/);
    const relay = wildLineNo(SAKULI, /^\[ERROR\] Failed to execute goal com\.amashchenko\.maven\.plugin:gitflow-maven-plugin/);
    expect(lines[0]).toBe(goal);
    expect(lines.every((n) => n < relay)).toBe(true);
  });

  it('needs several of Maven\'s tagged lines printed again; a relayed line printed nowhere before is kept', () => {
    const mk = (texts: string[]) => texts.map((text, i) => ({ n: i + 1, text }));
    const lines = mk(['[INFO] Scanning for projects...', 'boom', '[INFO] BUILD FAILURE', '[ERROR] Failed to execute goal x', '[ERROR] goal y failed: [INFO] Scanning for projects...', '[ERROR] [INFO] BUILD FAILURE', '[ERROR] boom', '[ERROR] [ERROR] Failed to execute goal x', '[ERROR] [ERROR]', '[ERROR] [INFO] only here', '[ERROR] [INFO] Scanning for projects...']);
    expect([...relayedMavenOutput(lines)]).toEqual([6, 7, 8, 9, 11]);
    expect(relayedMavenOutput(lines.slice(0, 9)).size).toBe(0);
    expect(relayedMavenOutput(mk(['[ERROR] x', '[ERROR] [ERROR] x'])).size).toBe(0);
  });
});

const ACS = 'gha-maven-acs-aem-commons-staging-rules';

describe.skipIf(!hasWildLog(ACS))("Maven's `-e` trace whose causes only repeat the goal line", () => {
  it("is a restatement: nexus-staging's rule report is quoted, not the `LifecycleExecutionException` trace (before: 12 of its lines)", async () => {
    const lines = await evidenceOf(ACS);
    expect(lines[0]).toBe(wildLineNo(ACS, /\[ERROR\] Rule failure while trying to close staging repository/));
    const trace = wildLineNo(ACS, /^\S+ org\.apache\.maven\.lifecycle\.LifecycleExecutionException: Failed to execute goal/);
    const cause = wildLineNo(ACS, /Caused by: com\.sonatype\.nexus\.staging\.client\.StagingRuleFailuresException/);
    expect(lines.filter((n) => n >= trace - 1 && n <= cause)).toEqual([]);
  });
});

const GRAPHQL = 'gha-gradle-graphql-java-spock-npe';

describe.skipIf(!hasWildLog(GRAPHQL))("Gradle's test output of passing tests, and its `--stacktrace` trace of the failed task", () => {
  it('quotes the failed test first: the stream sections of tests Gradle never reported FAILED are survived (before: a passing test\'s logged trace first, P 0.15)', async () => {
    const lines = await evidenceOf(GRAPHQL);
    const failed = wildLineNo(GRAPHQL, /EditOperationAnalyzerAppliedDirectivesTest > reproduce the null mapping case FAILED$/);
    expect(lines[0]).toBe(failed);
    expect(lines).toContain(wildLineNo(GRAPHQL, /^\S+\s+java\.lang\.NullPointerException$/, failed));
  });

  it("leaves out the `TaskExecutionException` trace whose cause `* What went wrong:` printed", async () => {
    const lines = await evidenceOf(GRAPHQL);
    const trace = wildLineNo(GRAPHQL, /org\.gradle\.api\.tasks\.TaskExecutionException: Execution failed for task ':test'/);
    const cause = wildLineNo(GRAPHQL, /Caused by: org\.gradle\.api\.tasks\.VerificationException: There were failing tests/);
    expect(lines.filter((n) => n >= trace - 1 && n <= cause)).toEqual([]);
  });
});
