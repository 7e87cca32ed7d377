import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { readFileSync } from 'node:fs';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Shapes found on first sight of real Actions jobs and a Jenkins console of projects the rules had not seen
 * (fixtures/wild/gha-maven-*, jenkins-freestyle-fuel-*; issue 14's Jenkins and Actions precision round; each
 * label.json names its source). The logs are read from the mirrors `fetch` brought (BugSwarm's data,
 * rkhozinov/jenkins-jobs), not committed: without them (CI, a fresh clone) these tests are skipped.
 */
const JBANKING = 'gha-maven-jbanking-calendar-strata';
const TTL = 'gha-maven-ttl-kotest-same-reference';
const FUEL = 'jenkins-freestyle-fuel-contrail-proboscis-error';
const evidenceOf = async (id: string) => (await diagnose({ log: wildLog(id) })).evidence.map((e) => e.line);

describe.skipIf(!hasWildLog(JBANKING))("Maven's elapsed-milliseconds prefix (`21794 [ERROR] …`)", () => {
  it('is read like a timestamp: its blank `[INFO]` lines and its `-> [Help 1]` advice are not quoted (jbanking)', async () => {
    const ev = await evidenceOf(JBANKING);
    expect(ev).toEqual(expect.arrayContaining([wildLineNo(JBANKING, /\d+ \[ERROR\] Failures: *\r?$/), wildLineNo(JBANKING, /AssertionFailedError: 2022-09-19/)]));
    for (const re of [/\d+ \[INFO\] *\r?$/, /\d+ \[ERROR\] -> \[Help 1\]/, /\d+ \[ERROR\] Please refer to \/home/]) expect(ev).not.toContain(wildLineNo(JBANKING, re));
  });
});

describe.skipIf(!hasWildLog(TTL))('a Kotlin test trace under surefire (transmittable-thread-local)', () => {
  it("stops at the test's own frames: Kotest's engine and kotlinx.coroutines' dispatch below them are plumbing", async () => {
    const ev = await evidenceOf(TTL);
    expect(ev).toContain(wildLineNo(TTL, /TtlExtensionsTests\.kt:159\)/));
    expect(ev).not.toContain(wildLineNo(TTL, /at io\.kotest\./));
    expect(ev).not.toContain(wildLineNo(TTL, /at kotlinx\.coroutines\./));
  });

  it("quotes the rerun that failed from surefire's listing of a test's runs, not the ones that passed", async () => {
    const ev = await evidenceOf(TTL);
    expect(ev).toContain(wildLineNo(TTL, /\[ERROR\] {3}Run 7: /));
    expect(ev).not.toContain(wildLineNo(TTL, /\[INFO\] {3}Run 1: PASS/));
  });
});

describe.skipIf(!hasWildLog(FUEL))('a unittest ERROR under a Jenkins freestyle step (fuel-plugin-contrail)', () => {
  it("starts at the `ERROR: title` block, not the lone `ERROR` verdict printed after the test's own output", async () => {
    const ev = await evidenceOf(FUEL);
    expect(ev[0]).toBe(wildLineNo(FUEL, /^ERROR: Deploy a cluster/));
    expect(ev).not.toContain(wildLineNo(FUEL, /^ERROR\s*$/));
  });

  it("keeps the traceback's exception line though it quotes an exit status (`…CalledProcessError: Command '…' returned non-zero exit status 127`)", async () => {
    const ev = await evidenceOf(FUEL);
    expect(ev).toContain(wildLineNo(FUEL, /^DevopsCalledProcessError: Command .* returned non-zero exit status 127/));
  });
});

describe("a suite's `Skipping test '…'` notices after the failure (mongo-python-driver, a committed log)", () => {
  it("are not evidence though the skipped tests' names say `raises an error`", async () => {
    const id = 'gha-python-2496945256';
    const ev = await evidenceOf(id);
    const lines = readFileSync(wildLog(id), 'utf8').split('\n');
    expect(ev).toContain(wildLineNo(id, /TypeError: ChangeStream\.__init__\(\) missing 1 required positional argument/));
    expect(ev.filter((n) => /Skipping test '/.test(lines[n - 1]!))).toEqual([]);
  });
});
