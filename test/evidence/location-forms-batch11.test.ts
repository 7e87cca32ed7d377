import { describe, expect, it } from 'vitest';
import { errorScore, findGenericBlocks, locationsIn, signalsFromBlocks } from '../../src/evidence/index.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { gccMatcher } from '../../src/extract/matchers/gcc.js';
import { isTestFile } from '../../src/repo/related-files.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Location forms, block and category rules read off the eleventh batch of unseen toolchains' recorded output (fixtures/logs). */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const textOf = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.text;
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });

describe('location forms of the eleventh unseen batch', () => {
  it("reads gnuplot's quoted file then its line, `\"airfoil.dem\" line 130: undefined variable: thick`", () => {
    expect(locationsIn(textOf('gnuplot-undefined-renamed-variable-airfoil', 'undefined variable'))).toEqual([{ path: 'airfoil.dem', line: 130 }]);
    expect(locationsIn('she said "hello" line 3 times')).toEqual([]);
  });

  it("reads a place in brackets, Thrift's `[ERROR:/x/tutorial.thrift:127]` and HAProxy's `parsing [haproxy.cfg:26] :`", () => {
    expect(locationsIn(textOf('thrift-undefined-renamed-service-tutorial', '[ERROR:'))).toEqual([{ path: expect.stringMatching(/\/tutorial\/tutorial\.thrift$/), line: 127 }]);
    expect(locationsIn(textOf('haproxy-c-unknown-timeout-defaults', 'parsing ['))).toEqual([{ path: 'haproxy.cfg', line: 26 }]);
  });

  it("reads nginx's extensionless configuration file at the end of its report, `… in /etc/nginx/sites-enabled/default:60`", () => {
    expect(locationsIn(textOf('nginx-t-unknown-directive-default-site', '[emerg]'))).toEqual([{ path: expect.stringMatching(/\/nginx\/sites-enabled\/default$/), line: 60 }]);
    // a directory is what makes an extensionless name a file; a clock or a port is not one
    expect(locationsIn('waited in queue:60')).toEqual([]);
    expect(locationsIn('listening in 0.0.0.0:8080 now')).toEqual([]);
  });

  it("gives Raku's fileless `twrap used at line 60` the file its `Error while compiling` header names", () => {
    const c = 'raku-undeclared-renamed-twrap-pod-to-text';
    const n = at(c, '===SORRY!===');
    expect(signalsFromBlocks([block(n, n + 2)], lines(c), 'compile')).toMatchObject([{ path: expect.stringMatching(/lib\/Pod\/To\/Text\.rakumod$/), line: 60 }]);
  });

  it("reads syslog's severities above error as failure (nginx's `[emerg]`, HAProxy's `[ALERT]`), and a scanner's `Severity: High`", () => {
    expect(errorScore(textOf('nginx-t-unknown-directive-default-site', '[emerg]'))).toBeGreaterThanOrEqual(0.5);
    expect(errorScore(textOf('haproxy-c-unknown-timeout-defaults', 'parsing ['))).toBeGreaterThanOrEqual(0.5);
    expect(errorScore(textOf('bandit-shell-true-lsb-release-distro', 'Severity: High'))).toBeGreaterThanOrEqual(0.5);
    expect(errorScore('   Severity: Low   Confidence: High')).toBe(0);
    expect(errorScore('[notice] worker process started')).toBe(0);
  });

  it("quotes a checker's bare report, not the count printed above it (cpplint's `Total errors found: 1`)", () => {
    const c = 'cpplint-using-namespace-inireader';
    const ls = lines(c);
    const step = ls.filter((l) => l.n > at(c, 'Run cpplint') + 2);
    const blocks = findGenericBlocks({ lines: step });
    expect(blocks.map((b) => b.header)).toEqual([at(c, 'cpp/INIReader.cpp:18:')]);
  });

  it('calls what the batch reported by its kind: undeclared names and a failed configuration compile, rule ids lint, a runner\'s TEST failure test', () => {
    expect(category(textOf('raku-undeclared-renamed-twrap-pod-to-text', 'Undeclared routine'))).toBe('compile');
    expect(category(textOf('thrift-undefined-renamed-service-tutorial', 'has not been defined'))).toBe('compile');
    expect(category(textOf('haproxy-c-unknown-timeout-defaults', 'Error(s) found in configuration file'))).toBe('compile');
    expect(category(textOf('cpplint-using-namespace-inireader', '[build/namespaces]'))).toBe('lint');
    expect(category(textOf('bandit-shell-true-lsb-release-distro', '>> Issue:'))).toBe('lint');
    expect(category(textOf('cpputest-cjson-minify-escaped-quote', 'Failure in TEST'))).toBe('test');
    expect(category('src/a.c:12: error: expected \';\' before \'}\' token')).toBe('compile');
  });

  it("leaves CppUTest's `tests/a.cpp:39: error: Failure in TEST(…)` to the test reading, not gcc's", () => {
    expect(gccMatcher.extract(lines('cpputest-cjson-minify-escaped-quote'))).toEqual([]);
    expect(gccMatcher.extract([{ n: 1, text: 'src/a.cpp:39: error: expected primary-expression before \')\' token' }])).toHaveLength(1);
  });

  // Rules added after the out-of-sample four (capnp, QUnit, Stylus, Cucumber) were scored.
  it("keeps a report that points back (`Ordinal @2 originally used here.`) from taking the place of the one above it", () => {
    const c = 'capnp-duplicate-ordinal-rpc-twoparty';
    const n = at(c, 'Duplicate ordinal');
    const s = signalsFromBlocks([block(n, n + 1)], lines(c), 'compile');
    const best = [...s].sort((a, b) => b.weight - a.weight)[0];
    expect(best).toMatchObject({ path: 'capnp/rpc-twoparty.capnp', line: 170 });
  });

  it("calls a parser's wanted punctuation compile (Stylus' `expected \")\", got \"indent\"`), not a test's comparison", () => {
    expect(category(textOf('stylus-unclosed-paren-nib-size', 'got "indent"'))).toBe('compile');
    expect(category("AssertionError: expected 'foo' to equal 'bar'")).toBe('test');
  });

  it("reads Cucumber's and behave's step definitions and features as test code", () => {
    expect(isTestFile('features/step_definitions/address_steps.rb')).toBe(true);
    expect(isTestFile('features/steps/parse.py')).toBe(true);
    expect(isTestFile('features/private_addresses.feature')).toBe(true);
    expect(isTestFile('lib/features/flags.rb')).toBe(false);
  });

  // Rules added after the second out-of-sample pair (Chez Scheme, GJS) was scored.
  it("reads Chez Scheme's `at line 24, char 1 of examples/unify.ss`", () => {
    expect(locationsIn(textOf('chez-compile-unbalanced-unify', 'Exception in read'))).toEqual([{ path: 'examples/unify.ss', line: 24 }]);
  });

  it("gives GJS's lineless `Failed to parse module 'file:///x/index.js': SyntaxError: …` its file, so only the PR's change there places it", () => {
    const c = 'gjs-missing-paren-pretty-bytes';
    const n = at(c, 'Failed to parse module');
    expect(signalsFromBlocks([block(n, n)], lines(c), 'compile')).toMatchObject([{ path: expect.stringMatching(/\/index\.js$/) }]);
    expect(signalsFromBlocks([block(n, n)], lines(c), 'compile')[0]!.line).toBeUndefined();
  });
});

