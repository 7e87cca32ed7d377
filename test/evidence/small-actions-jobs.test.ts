import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { wildLog, wildLineNo } from '../helpers/wild.js';

/**
 * Failed Actions jobs of small public projects (fixtures/wild/gha-small-*, issue 14's round on them), each
 * a shape many tools share: the runner's annotation on a tool's own line, a code frame's marked line, a
 * job that failed before any step began or whose copy starts inside a step, a retried test's restatements.
 */
const evidenceOf = async (id: string) => {
  const d = await diagnose({ log: wildLog(id) });
  return { d, lines: d.evidence.map((e) => e.line) };
};

describe('small Actions jobs', () => {
  it("a tool's message the runner annotated (`##[error]error: invalid path …`) is the report, not the runner's restatement", async () => {
    const id = 'gha-small-windows-checkout-invalid-path';
    const { lines } = await evidenceOf(id);
    expect(lines[0]).toBe(wildLineNo(id, /##\[error\]error: invalid path/));
    // The checkout's own chatter before it (`Adding repository directory …`) is not why it failed.
    expect(lines).not.toContain(wildLineNo(id, /Adding repository directory/));
  });

  it("eslint's entries under a problem matcher keep their file line: the annotation prefix hides the indent", async () => {
    const id = 'gha-small-eslint-prefer-const';
    const { lines } = await evidenceOf(id);
    const file = wildLineNo(id, /Z \/home\/runner\/work\/pdf-tools\/pdf-tools\/src\/components\/tools\/PDFWatermark\.tsx$/);
    expect(lines[0]).toBe(file);
    expect(lines).toContain(wildLineNo(id, /##\[error\] {3}67:17/));
    expect(lines).toContain(wildLineNo(id, /##\[error\] {2}123:21/));
  });

  it('a code frame is quoted through the line it marks (`> 24 |`) and its caret', async () => {
    const id = 'gha-small-nextjs-prisma-type-error';
    const { lines } = await evidenceOf(id);
    expect(lines).toContain(wildLineNo(id, /Z > 24 \| +data: \{$/));
    expect(lines).toContain(wildLineNo(id, /Z +\| +\^$/));
  });

  it('a job that failed in the runner\'s set-up is that part of the log, named so', async () => {
    const id = 'gha-small-setup-job-action-not-found';
    const { d, lines } = await evidenceOf(id);
    expect(d.failingStep).toMatchObject({ name: 'Set up job', startLine: 1 });
    expect(lines).toEqual([wildLineNo(id, /##\[error\]Unable to resolve action/)]);
  });

  it('a log copied from inside a step: the step runs from its first line, and a retried test is quoted once', async () => {
    const id = 'gha-small-playwright-timeout-retries';
    const { d, lines } = await evidenceOf(id);
    expect(d.failingStep).toMatchObject({ startLine: 1 });
    const title = wildLineNo(id, /Z +1\) \[chromium\] › tests\/performance\.spec\.ts:1020:9/);
    expect(lines[0]).toBe(title);
    expect(lines).toContain(wildLineNo(id, /Z +> 1081 \| +page\.evaluate/));
    // Playwright's `Retry #1` and `Retry #2` print the same failure again.
    const retry = wildLineNo(id, /Z +Retry #1 /);
    expect(lines.filter((n) => n >= retry && n < wildLineNo(id, /Z +1 failed$/))).toEqual([]);
  });

  it("an action's annotation that only says the build failed, with a link, is not quoted: the failure is above it", async () => {
    // Not one of this round's logs: gradle-build-action's closing `##[error]Gradle build failed: <scan>` in
    // nokee's job (fixtures/wild/gha-gradle-2160401079), which the rule on `##[error]` lines above let in.
    const id = 'gha-gradle-2160401079';
    const { lines } = await evidenceOf(id);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines).not.toContain(wildLineNo(id, /##\[error\]Gradle build failed: https:/));
  });
});
