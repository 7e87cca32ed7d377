import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Issue 14's third Jenkins and Actions precision round (session 28): rules from real freestyle consoles of
 * builder.linuxtv.org's Jenkins, as its failure mails to the public linux-media list carry them
 * (fixtures/wild/jenkins-freestyle-*, committed; each label.json names the mail).
 */
const CLANG = 'jenkins-freestyle-media-stage-clang-tautological-compare';
const REMOTING = 'jenkins-freestyle-v4l-utils-remoting-stream-corrupted';
const BOOST = 'jenkins-freestyle-libcamera-meson-boost-missing';
const GNUTLS = 'jenkins-freestyle-libcamera-meson-gnutls-twice';

describe("clang's source excerpt (no `  734 |` gutter)", () => {
  it('the source line and the caret line under the diagnostic are part of it (clang-12 on the media tree)', async () => {
    const d = await diagnose({ log: wildLog(CLANG) });
    const lines = d.evidence.map((e) => e.line);
    const error = wildLineNo(CLANG, /xdr\.h:734:10: error: /);
    expect(lines).toContain(error);
    expect(lines).toContain(error + 1); // `        if (len > SIZE_MAX / sizeof(*p))`
    expect(lines).toContain(error + 2); // `            ~~~ ^ ~~~~~~~~~~~~~~~~~~~~~`
    // what follows is clang's count and make's restatement, not the excerpt
    expect(lines).not.toContain(wildLineNo(CLANG, /^1 error generated\.$/));
  });
});

describe("Jenkins' own `FATAL: …` in a freestyle console", () => {
  it('says the build failed where it was printed (the SCM checkout), with no `Build step … marked build as failure`', async () => {
    const d = await diagnose({ log: wildLog(REMOTING) });
    expect(d.failingStep).not.toBeNull();
    expect(d.failingStep!.startLine).toBe(1);
    expect(d.failingStep!.endLine).toBeGreaterThanOrEqual(wildLineNo(REMOTING, /^FATAL: java\.io\.StreamCorruptedException/));
    expect(d.category).toBe('infra');
  });
});

describe("Meson's configure errors for what the machine lacks", () => {
  it('`ERROR: Dependency "boost" not found` and `C library \'gnutls\' not found` are dependency failures', async () => {
    expect((await diagnose({ log: wildLog(BOOST) })).category).toBe('dependency');
    expect((await diagnose({ log: wildLog(GNUTLS) })).category).toBe('dependency');
  });
});
