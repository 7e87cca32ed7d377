import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Travis logs of Ruby, Go, R and C++ projects (fixtures/wild/travis-{ruby,go,r,cpp}-*: TravisTorrent's
 * development logs and logs the projects committed; each label.json names its source). Read from the
 * mirrors `fetch` brought (not committed): without them (CI, a fresh clone) these tests are skipped.
 */
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const run = async (id: string) => diagnose({ log: wildLog(id) });

const R = 'travis-r-rbms-check-examples-error';
describe.skipIf(!hasWildLog(R))("travis-build's verdict on an R job (`R CMD check failed`)", () => {
  it('makes the `R CMD check` command the failing step, through the log dumps to the verdict (rbms)', async () => {
    const d = await run(R);
    expect(d.failingStep?.name).toMatch(/^R CMD check "\$\{PKG_TARBALL\}"/);
    // from its timer's line or its `$ R CMD check …` echo on the line after it
    const echo = wildLineNo(R, /\$ R CMD check "\$\{PKG_TARBALL\}"/);
    expect([echo - 1, echo]).toContain(d.failingStep?.startLine);
    expect(d.failingStep?.endLine).toBe(wildLineNo(R, /R CMD check failed$/));
    // the check's own report of the failed examples, not the copy its 00check.log dump prints again
    expect(d.evidence[0]?.line).toBe(wildLineNo(R, /^\* checking examples \.\.\. ERROR/));
  });
});

const CUT = 'travis-ruby-homebrew-versions-minitest-audit-exit-cut';
describe.skipIf(!hasWildLog(CUT))('a copy cut inside the last command\'s exit message', () => {
  it('reads that command as the failing step (homebrew-versions)', async () => {
    const d = await run(CUT);
    expect(d.failingStep?.name).toMatch(/bin\/rake" test$/);
    expect(d.failingStep?.startLine).toBe(wildLineNo(CUT, /\$ \/System\/Library\/.*bin\/rake" test/));
    const failure = wildLineNo(CUT, /^ {2}1\) Failure:/);
    expect(d.evidence[0]?.line).toBe(failure);
  });
});

const GO = 'travis-go-rocks-strata-concurrent-map-writes';
describe.skipIf(!hasWildLog(GO))("Go's runtime `fatal error:` trace", () => {
  it("is quoted from the error through the program's frames, the frame pointers and gimme's GOROOT read as a trace (rocks-strata)", async () => {
    const d = await run(GO);
    const head = wildLineNo(GO, /^fatal error: concurrent map writes/);
    const own = wildLineNo(GO, /rocks-strata\/strata\/manager\.go:258 \+0x2c5 fp=/);
    const ev = d.evidence.map((e) => e.line);
    expect(ev[0]).toBe(head);
    // the program's frames, from `(*MockStorage).PutReader` at mock.go:171 down to the goroutine's own
    const first = wildLineNo(GO, /^github\.com\/facebookgo\/rocks-strata\/strata\.\(\*MockStorage\)\.PutReader/);
    expect(ev).toEqual(expect.arrayContaining(range(first, own)));
    expect(ev).not.toContain(wildLineNo(GO, /^runtime\.goexit\(\)/));
    // `go test`'s generated main is the runner's, never the pin; the other goroutines are not quoted
    expect(d.findings.map((f) => f.file)).not.toContainEqual(expect.stringMatching(/_testmain\.go$/));
    expect(ev).not.toContain(wildLineNo(GO, /^goroutine 1 \[chan receive\]:/));
  });

  it("quotes `go test`'s `FAIL\\t<package>` verdict alone, not the goroutine dump above it", async () => {
    const d = await run(GO);
    const verdict = wildLineNo(GO, /^FAIL\tgithub\.com\/facebookgo\/rocks-strata\/strata\t/);
    const ev = d.evidence.map((e) => e.line);
    expect(ev).toContain(verdict);
    expect(ev).not.toContain(verdict - 1);
  });
});

const CONF = 'travis-cpp-glex-configure-pkg-config-gl';
describe.skipIf(!hasWildLog(CONF))("autoconf's `configure: error:`", () => {
  it('is quoted with the paragraph its colon announces, past the blank line (glex)', async () => {
    const d = await run(CONF);
    const error = wildLineNo(CONF, /^configure: error: Package requirements \(gl\) were not met:/);
    const missing = wildLineNo(CONF, /^No package 'gl' found/);
    expect(d.evidence.map((e) => e.line)).toEqual([error, missing]);
  });
});
