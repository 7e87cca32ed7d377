import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Issue 14's second Jenkins and Actions precision round (session 27): rules on what is quoted from real
 * Jenkins consoles and Actions jobs (fixtures/wild/, each label.json names its source). Most of these logs
 * are read from the mirrors `fetch` brought (not committed): without them these tests are skipped.
 */
const ARCHON = 'jenkins-pipeline-archon-docker-addgroup-in-use';
const KONY = 'jenkins-pipeline-kony-customhook-clone-auth';
const HTML_ESCAPE = 'rec-gha-unittest-html-escape';
const SPYDER = 'gha-python-2512083654';
const PYTEST_TALLY = 'gha-python-2163834915';

const evidenceOf = async (id: string) => (await diagnose({ log: wildLog(id) })).evidence.map((e) => e.line);

describe.skipIf(!hasWildLog(ARCHON))('a `parallel` block whose branch failed (`Failed in branch X`)', () => {
  it('the failing step is the branch Jenkins names, up to its notice, not the last branch opened (archon-plus)', async () => {
    const d = await diagnose({ log: wildLog(ARCHON) });
    expect(d.failingStep?.name).toBe('Build Archon UI');
    expect(d.failingStep?.endLine).toBe(wildLineNo(ARCHON, /^Failed in branch Build Archon UI$/) - 1);
  });
});

describe.skipIf(!hasWildLog(KONY))("a Pipeline step's `Running in /…` note", () => {
  it('is bookkeeping, never evidence (the kony console quoted two `Running in` lines before)', async () => {
    const lines = await evidenceOf(KONY);
    const running = wildLineNo(KONY, /\] Running in \//);
    expect(lines).not.toContain(running);
  });
});

describe('a Python traceback (most recent call last)', () => {
  it("leaves out the way in: the standard library's frames before the project's first own frame (unittest's loader)", async () => {
    const lines = await evidenceOf(HTML_ESCAPE);
    expect(lines).toContain(wildLineNo(HTML_ESCAPE, /Traceback \(most recent call last\)/));
    expect(lines).not.toContain(wildLineNo(HTML_ESCAPE, /File "<frozen runpy>", line \d+, in _run_module_as_main/));
    expect(lines).not.toContain(wildLineNo(HTML_ESCAPE, /unittest\/main\.py", line \d+, in parseArgs$/));
    // the last three before the project's frame are kept: the loader's import of the test module
    expect(lines).toContain(wildLineNo(HTML_ESCAPE, /unittest\/loader\.py", line \d+, in loadTestsFromName$/));
    expect(lines).toContain(wildLineNo(HTML_ESCAPE, /^\S*\s*\w+Error: /));
  });
});

describe.skipIf(!hasWildLog(SPYDER))("Python's faulthandler dump (most recent call first)", () => {
  it("reads like a JVM trace: the test's own frame is quoted, pytest's and pluggy's descent under it is not (spyder)", async () => {
    const lines = await evidenceOf(SPYDER);
    // The test crashed on its rerun too (flaky): the dump quoted is the one that ended the run, the first
    // evidence line's.
    const dump = wildLineNo(SPYDER, /Current thread 0x[0-9a-f]+ \(most recent call first\):/, lines[0]);
    expect(lines).toContain(wildLineNo(SPYDER, /test_mainwindow\.py", line \d+ in test_varexp_rename\r?$/, dump));
    expect(lines).not.toContain(wildLineNo(SPYDER, /_pytest\/main\.py", line \d+ in wrap_session\r?$/, dump));
  });
});

describe.skipIf(!hasWildLog(PYTEST_TALLY))("pytest's closing tally between its rules", () => {
  it('is not quoted beside the failure it counts (`= 1 failed, 802 passed, … in 1284.21s (0:21:24) =`)', async () => {
    const lines = await evidenceOf(PYTEST_TALLY);
    expect(lines).not.toContain(wildLineNo(PYTEST_TALLY, /= 1 failed, 802 passed.* in [\d.]+s/));
    expect(lines.length).toBeGreaterThan(0);
  });
});

const JBANKING = 'gha-maven-jbanking-calendar-strata';
describe.skipIf(!hasWildLog(JBANKING))("Maven's `-e` trace of a goal that failed for the reason it reported", () => {
  it("restates `[ERROR] Failed to execute goal`: its Maven frames down to `MojoFailureException` are not quoted (jbanking)", async () => {
    const lines = await evidenceOf(JBANKING);
    expect(lines).toContain(wildLineNo(JBANKING, /<<< FAILURE!\r?$/));
    expect(lines).not.toContain(wildLineNo(JBANKING, /at org\.apache\.maven\.lifecycle\.internal\.MojoExecutor\.doExecute2 /));
    expect(lines).not.toContain(wildLineNo(JBANKING, /Caused by: org\.apache\.maven\.plugin\.MojoFailureException/));
  });
});

const KONY_IOS = 'jenkins-pipeline-kony-ios-hook-script-missing';
describe.skipIf(!hasWildLog(KONY) || !hasWildLog(KONY_IOS))('a nested stage that printed nothing but its steps and their shell trace', () => {
  it("ran clean: its enclosing stage, whose ant build failed before it, is the failing step (both kony consoles)", async () => {
    for (const id of [KONY, KONY_IOS]) {
      const d = await diagnose({ log: wildLog(id) });
      expect(d.failingStep?.name).toBe('Run CustomHook');
      expect(d.evidence.map((e) => e.line)).toContain(wildLineNo(id, /\] BUILD FAILED\r?$/));
    }
  });
});

const FASTJSON2 = 'gha-maven-fastjson2-date-assertions';
describe.skipIf(!hasWildLog(FASTJSON2))("a recursion's frames (a `StackOverflowError`)", () => {
  it('are quoted once each: the same frame printed again and again is not quoted again (fastjson2)', async () => {
    const lines = await evidenceOf(FASTJSON2);
    const text = new Map(readFileSync(wildLog(FASTJSON2), 'utf8').split('\n').map((l, i) => [i + 1, l.replace(/^\S+Z /, '').trim()]));
    const frames = lines.map((n) => text.get(n) ?? '').filter((l) => l.startsWith('at '));
    expect(frames.length).toBeGreaterThan(0);
    expect(new Set(frames).size).toBe(frames.length);
  });
});
