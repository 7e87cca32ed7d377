import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { cleanLine } from '../../src/log/clean.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Jenkins Pipeline consoles that projects committed (fixtures/wild/jenkins-pipeline-*, issue 14's round on
 * Jenkins and Actions precision; each label.json names its source). They are read from the mirrors `fetch`
 * brought (not committed): without them (CI, a fresh clone) these tests are skipped.
 */
const PORTAL = 'jenkins-pipeline-placement-portal-aws-no-credentials';
const SAGEMCOM = 'jenkins-pipeline-sagemcom-surefire-db-refused';

describe.skipIf(!hasWildLog(SAGEMCOM))("Jenkins' ConsoleNote markup (the raw log file keeps it)", () => {
  it('is hidden: a `[Pipeline]` line behind a note reads `[Pipeline] …`, so the failing stage is found', async () => {
    const raw = readFileSync(wildLog(SAGEMCOM), 'utf8').split('\n');
    const sh = wildLineNo(SAGEMCOM, /\[Pipeline\] \{ \(Tests Back-end \(Maven\)\)$/);
    expect(raw[sh - 1]).toMatch(/^\x1b\[8mha:\S+\x1b\[0m\[Pipeline\] /);
    expect(cleanLine(raw[sh - 1]!)).toBe('[Pipeline] { (Tests Back-end (Maven))');
    const d = await diagnose({ log: wildLog(SAGEMCOM) });
    expect(d.failingStep?.name).toBe('Tests Back-end (Maven)');
  });
});

describe.skipIf(!hasWildLog(PORTAL) || !hasWildLog(SAGEMCOM))("a Pipeline's bookkeeping is not evidence", () => {
  it('skipped-stage notices and a post action\'s `echo` are left out; the tool\'s error alone is quoted (Placement-Portal)', async () => {
    const d = await diagnose({ log: wildLog(PORTAL) });
    expect(d.evidence.map((e) => e.line)).toEqual([wildLineNo(PORTAL, /^aws: \[ERROR\]: .*NoCredentials/)]);
  });

  it("the post actions' echoed `❌ …` message is not quoted after a surefire failure (Sagemcom)", async () => {
    const d = await diagnose({ log: wildLog(SAGEMCOM) });
    const lines = d.evidence.map((e) => e.line);
    expect(lines).toContain(wildLineNo(SAGEMCOM, /<<< ERROR!$/));
    expect(lines).not.toContain(wildLineNo(SAGEMCOM, /Le pipeline a échoué/));
  });
});

describe.skipIf(!hasWildLog(PORTAL))('a `Stage "X" skipped` notice names the stage it skipped', () => {
  it("the branches of a parallel block open before either is skipped: the failing stage is the last that ran (Placement-Portal)", async () => {
    const d = await diagnose({ log: wildLog(PORTAL) });
    expect(d.failingStep?.name).toBe('Setup AWS Environment');
  });
});

describe.skipIf(!hasWildLog(PORTAL))("the AWS CLI's `Unable to locate credentials`", () => {
  it('is infra: the credentials the CI should hold are missing, nothing in the project failed (Placement-Portal)', async () => {
    expect((await diagnose({ log: wildLog(PORTAL) })).category).toBe('infra');
  });
});
