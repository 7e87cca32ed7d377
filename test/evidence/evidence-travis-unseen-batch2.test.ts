import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { hasWildLog, wildLineNo as lineNo, wildLog as wild } from '../helpers/wild.js';

/**
 * Misses on first sight of a second batch of Travis logs of projects the rules had never seen
 * (fixtures/wild/travis-dissection-*, issue 14's generalisation check; each label.json names its source).
 * Read from the BugSwarm-dissection mirror `fetch` brought (not committed): skipped without it.
 */
const MIRROR = hasWildLog('travis-dissection-dropwizard-surefire-fork-crash');
const evidenceOf = async (id: string) => (await diagnose({ log: wild(id) })).evidence.map((e) => e.line);

describe.skipIf(!MIRROR)('a stack trace a passing test printed', () => {
  it("gives way to the failure: a test's logged `SEVERE:` trace under surefire's `Failures: 0, Errors: 0` (dropwizard)", async () => {
    const id = 'travis-dissection-dropwizard-surefire-fork-crash';
    const logged = lineNo(id, /^SEVERE: Unable to create initial connections of pool\./);
    const ev = await evidenceOf(id);
    expect(ev.filter((n) => n >= logged && n < logged + 60)).toEqual([]);
    expect(ev[0]).toBe(lineNo(id, /The forked VM terminated without properly saying goodbye/));
  });

  it("pytest -s's teardown trace glued to the test's `PASSED` is not quoted before the FAILURES block (gns3-server)", async () => {
    const id = 'travis-dissection-gns3-server-pytest-typeerror';
    const title = lineNo(id, /_+ test_clean_project_directory _+/);
    const ev = await evidenceOf(id);
    expect(ev[0]).toBe(title);
  });
});

describe.skipIf(!MIRROR)('a Travis log cut while a command ran', () => {
  it('reads that command as the failing step: no exit line, no `Done.`, its timer never closed (joblib)', async () => {
    const id = 'travis-dissection-joblib-pytest-assert-truncated';
    const d = await diagnose({ log: wild(id) });
    expect(d.failingStep?.name).toBe('source continuous_integration/travis/test_script.sh');
    // The install fold closed on the very line the script's timer opened: the script is not setup.
    expect(d.failingStep?.startLine).toBe(lineNo(id, /travis_fold:end:install[\s\S]*\$ source continuous_integration\/travis\/test_script\.sh/));
  });
});

describe.skipIf(!MIRROR)('the category from the evidence', () => {
  it("Python 2's `ImportError: No module named x` is a missing dependency (the-blue-alliance)", async () => {
    expect((await diagnose({ log: wild('travis-dissection-tba-paver-import-error') })).category).toBe('dependency');
  });

  it("a Maven plugin's failed `compile` goal with only an NPE for a reason is a compile failure (teavm)", async () => {
    expect((await diagnose({ log: wild('travis-dissection-teavm-maven-plugin-npe-retried') })).category).toBe('compile');
  });
});
