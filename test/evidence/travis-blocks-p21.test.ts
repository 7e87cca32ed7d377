import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/diagnose.js';
import { isFrame } from '../../src/evidence/vocabulary.js';
import { hasWildLog, wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * Travis logs of p21travis's round (fixtures/wild/travis-bugswarm-*: BugSwarm's analyzer data; each
 * label.json names its source). Read from the mirror `fetch` brought (not committed): without it (CI, a
 * fresh clone) these tests are skipped.
 */
const range = (a: number, b: number) => Array.from({ length: b - a + 1 }, (_, i) => a + i);
const run = async (id: string) => diagnose({ log: wildLog(id) });

const ERJANG = 'travis-bugswarm-erjang-ant-gen-test-npe';
describe.skipIf(!hasWildLog(ERJANG))('a stack trace an Ant task relayed above BUILD FAILED', () => {
  it('is quoted from its exception line to its last frame, with the verdict (erjang: `[java] Exception in thread "main"`)', async () => {
    const ev = (await run(ERJANG)).evidence.map((e) => e.line);
    const exc = wildLineNo(ERJANG, /^\s+\[java\] Exception in thread "main" java\.lang\.NullPointerException/);
    const frame = wildLineNo(ERJANG, /^\s+\[java\] \tat erjang\.AllTests\.main\(AllTests\.java:106\)/);
    expect(ev).toEqual(expect.arrayContaining(range(exc, frame)));
    expect(ev).toContain(wildLineNo(ERJANG, /^\/home\/travis\/build\/trifork\/erjang\/build\.xml:52: Java returned: 1/));
  });
});

const RAKE = 'travis-bugswarm-jasmine-maven-plugin-rake-install-killed';
describe('a Ruby frame of a file with no extension', () => {
  it('is a frame (Rakefile, binstubs, rubygems hooks), the method quoted by a backtick or a quote', () => {
    expect(isFrame("/home/travis/build/searls/jasmine-maven-plugin/Rakefile:5:in `block (2 levels) in <top (required)>'")).toBe(true);
    expect(isFrame("/home/travis/.rvm/gems/ruby-1.9.3-p551/bin/ruby_executable_hooks:15:in `eval'")).toBe(true);
    expect(isFrame("\tfrom bin/rails:4:in '<main>'")).toBe(true);
    // a message that only names a place is not a frame
    expect(isFrame('Rakefile:5: syntax error, unexpected end-of-input')).toBe(false);
  });
  it.skipIf(!hasWildLog(RAKE))("grows rake's abort into its backtrace (jasmine-maven-plugin)", async () => {
    const ev = (await run(RAKE)).evidence.map((e) => e.line);
    const abort = wildLineNo(RAKE, /^rake aborted!$/);
    expect(ev).toEqual(expect.arrayContaining(range(abort, abort + 3)));
  });
});
