import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Issue 14's precision round on the study half of the Actions and Jenkins logs (session 29, fixtures/README.md
 * "Precision by mechanism"): which of several printed failures is quoted. The logs are read from the mirrors
 * `fetch` brought (not committed): without them these tests are skipped.
 */
const JBANKING = 'gha-maven-jbanking-calendar-strata';
const SPRING = 'gha-small-maven-spring-context-db-refused';
const DJANGO = 'gha-small-django-test-remote-traceback';

const evidenceOf = async (id: string) => (await diagnose({ log: wildLog(id) })).evidence.map((e) => e.line);

describe.skipIf(!hasWildLog(JBANKING))("a build tool's verdict on a test task (`There are test failures.`)", () => {
  it("restates surefire's report: Maven's goal line and its -e trace are left out beside the failing test (jbanking)", async () => {
    const lines = await evidenceOf(JBANKING);
    expect(lines).toContain(wildLineNo(JBANKING, /ensureConsistencyWithStrata {2}Time elapsed: .* <<< FAILURE!/));
    expect(lines).not.toContain(wildLineNo(JBANKING, /\[ERROR\] Failed to execute goal .*There are test failures\./));
    expect(lines).not.toContain(wildLineNo(JBANKING, / org\.apache\.maven\.lifecycle\.LifecycleExecutionException: Failed to execute goal .*There are test failures\./));
  });
});

describe.skipIf(!hasWildLog(SPRING))("Maven's goal line that only points at the reports (`Please refer to … for the individual test results`)", () => {
  it('is the same verdict: left out beside the test that failed (spring context)', async () => {
    const lines = await evidenceOf(SPRING);
    expect(lines).toContain(wildLineNo(SPRING, /JwtTest\.testPostChapter -- Time elapsed: .* <<< ERROR!/));
    expect(lines).not.toContain(wildLineNo(SPRING, /\[ERROR\] Failed to execute goal org\.apache\.maven\.plugins:maven-surefire-plugin/));
  });
});

describe.skipIf(!hasWildLog(DJANGO))('a Python traceback raised `from` the one above it, in plumbing', () => {
  it("gives way to the cause above it: multiprocessing's RemoteTraceback, not the parent's re-raise (django --parallel)", async () => {
    const lines = await evidenceOf(DJANGO);
    const cause = wildLineNo(DJANGO, /SerpApiConnectorError: SerpApi returned status 401/);
    expect(lines).toContain(cause);
    expect(lines[0]).toBeLessThanOrEqual(cause);
    const reRaise = wildLineNo(DJANGO, /The above exception was the direct cause of the following exception:/, wildLineNo(DJANGO, /^[^"]*"""\s*$/, cause));
    expect(lines.filter((n) => n > reRaise)).toEqual([]);
  });
});

const NOSE = 'gha-python-2477898638';

describe("a failing test's captured output (nose's `>> begin captured logging <<`, pytest's `--- Captured stdout call ---`)", () => {
  it("ends the block grown down from the failure's traceback: the test's logging is context (rosdistro, nose)", async () => {
    const lines = await evidenceOf(NOSE);
    expect(lines.length).toBeGreaterThan(0);
    // Every line from a `>> begin captured … <<` banner to its `>> end captured … <<` one (before the rule, the
    // second failure's block ran on through its banner and the test's DEBUG lines).
    const text = readFileSync(wildLog(NOSE), 'utf8').split('\n');
    const captured: number[] = [];
    let inside = false;
    text.forEach((t, i) => {
      if (/>> begin captured \w+ <</.test(t)) inside = true;
      if (inside) captured.push(i + 1);
      if (/>> end captured \w+ <</.test(t)) inside = false;
    });
    expect(captured.length).toBeGreaterThan(0);
    expect(lines.filter((n) => captured.includes(n))).toEqual([]);
  });
});
