import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';
import { cleanText } from '../../src/log/clean.js';
import { condenseBlock } from '../../src/evidence/condense-block.js';
import type { Block } from '../../src/evidence/index.js';
import { mergeBlocks } from '../../src/evidence/index.js';
import { wildLineNo, wildLog } from '../helpers/wild.js';

/**
 * What the evidence leaves out, on real logs of the development corpus (fixtures/wild/: real CI logs of
 * public projects and real toolchains run here): a pytest traceback's source listing, the second of N
 * failures with the same message, Gradle's restatement of failed tests, a banner on its own.
 */
const wild = wildLog;
const lineNo = wildLineNo;

describe('a pytest traceback is quoted by its title, the raising line and the exception', () => {
  const id = 'buildbot-pytest-textwrap';

  it('leaves out the test’s source listed above the `>` line and the other tests’ tracebacks', async () => {
    const d = await diagnose({ log: wild(id) });
    const quoted = d.evidence.map((e) => e.text);
    expect(quoted[0]).toMatch(/^_+ WrapTestCase\.test_break_on_hyphens _+$/);
    expect(quoted).toContain('>       self.check_wrap(text, 10, ["yaba daba-", "doo"],');
    expect(quoted).toContain("E   AssertionError: Lists differ: ['yaba', 'daba-doo'] != ['yaba daba-', 'doo']");
    // The listing of the test function above `>`: not quoted.
    expect(quoted).not.toContain('    def test_break_on_hyphens(self):');
    expect(quoted.filter((t) => t.startsWith('>'))).toHaveLength(1);
    // 14 more tests fail with `Lists differ`: the summary names them, their tracebacks are not quoted.
    expect(quoted.filter((t) => /^E +AssertionError: Lists differ/.test(t))).toHaveLength(1);
    expect(quoted).toContain('FAILED tests/test_textwrap.py::WrapTestCase::test_break_on_hyphens - Assertio...');
  });

  it('condenses only a long traceback: a block without a `>` line stays whole', () => {
    const lines = cleanText(readFileSync(wild(id), 'utf8'));
    const text = new Map(lines.map((l) => [l.n, l.text] as const));
    const e = lineNo(id, /^E   AssertionError: Lists differ/);
    const block: Block = { start: e - 9, end: e + 16, header: e - 9, kind: 'assertion', score: 1.6, why: [], source: 'matcher' };
    const c = condenseBlock(block, text);
    expect(c.lines![0]).toBe(lineNo(id, /^_+ WrapTestCase\.test_break_on_hyphens _+$/));
    expect(c.lines).not.toContain(lineNo(id, /^ {4}def test_break_on_hyphens/));
    expect(c.lines).toContain(e);
    // The summary list below it is no traceback: returned as it is.
    const sum = lineNo(id, /^FAILED tests\/test_textwrap\.py::WrapTestCase::test_break_on_hyphens/);
    const summary: Block = { start: sum, end: sum + 14, header: sum, kind: 'summary', score: 1, why: [], source: 'generic' };
    expect(condenseBlock(summary, text)).toBe(summary);
  });

  it('drops a block that is only a banner (`==== FAILURES ====`): the first line quoted is the test’s title', async () => {
    const d = await diagnose({ log: wild('rec-gha-pytest-colorsys') });
    expect(d.evidence[0]!.text).toMatch(/^_+ ColorsysTest\.test_hsv_roundtrip _+$/);
    expect(d.evidence.map((e) => e.text)).not.toContain('=================================== FAILURES ===================================');
  });
});

describe('repeated failures', () => {
  it('quotes the first of N jest failures with the same message, not the others (real jest log)', async () => {
    const id = 'gha-javascript-jest-2518112250';
    const d = await diagnose({ log: wild(id) });
    const lines = d.evidence.map((e) => e.line);
    expect(lines).toContain(lineNo(id, /TypeError: result\.message is not a function/));
    expect(lines).not.toContain(lineNo(id, /TypeError: result\.message is not a function/, lineNo(id, /TypeError: result\.message is not a function/)));
  });

  it('quotes two failures that say different things (real minitest run)', async () => {
    const id = 'buildbot-minitest-assert-empty';
    const d = await diagnose({ log: wild(id) });
    const quoted = d.evidence.map((e) => e.text);
    expect(quoted).toContain('Minitest::Assertion expected but nothing was raised.');
    expect(quoted).toContain('Expected [] to be empty.');
  });

  it('leaves out Gradle’s `There were failing tests. See the report` after the failed test (real Gradle log)', async () => {
    const id = 'gha-gradle-2398880548';
    const d = await diagnose({ log: wild(id) });
    expect(d.evidence.map((e) => e.line)).toContain(lineNo(id, /NettyFlowControlTest > largeBdp FAILED/));
    expect(d.evidence.map((e) => e.text).join('\n')).not.toMatch(/There were failing tests|Build completed with \d+ failure/);
  });
});

describe('pytest titles and sections', () => {
  it('condenses a traceback under a title padded by one underscore a side (a long parametrised name)', () => {
    const id = 'gha-python-2163834915';
    const lines = cleanText(readFileSync(wild(id), 'utf8'));
    const text = new Map(lines.map((l) => [l.n, l.text] as const));
    const title = lineNo(id, /Z _ test_sys_entities_normalized_token_span\[ok 2:30pm now-valid_spans10-sys_time\] _$/);
    const e = lineNo(id, /Z E {11}assert \(1, 2\) in \{\(1, 1\), \(2, 2\)\}/);
    const block: Block = { start: title, end: e + 2, header: title, kind: 'assertion', score: 1.6, why: [], source: 'matcher' };
    const c = condenseBlock(block, text);
    expect(c.header).toBe(title);
    expect(c.lines).toEqual([title, e - 1, e, e + 2]);
  });

  it("finds the title far above the `>` line when the traceback lists a library's whole function (numpy's test_isin, 231 lines)", async () => {
    const id = 'gha-python-2516607438';
    const title = lineNo(id, /Z _+ TestSetOps\.test_isin _+$/);
    const raised = lineNo(id, /Z >           raise ValueError\($/);
    expect(raised - title).toBeGreaterThan(200);
    const quoted = (await diagnose({ log: wild(id) })).evidence.map((e) => e.line);
    expect(quoted[0]).toBe(title);
    expect(quoted).toContain(raised);
    // the frames and listing between the title and the `>` line are not quoted
    expect(quoted).not.toContain(title + 2);
  });

  it('keeps back-to-back `ERROR collecting` sections apart: one section does not take the whole budget', () => {
    const id = 'gha-python-27530380915';
    const lines = cleanText(readFileSync(wild(id), 'utf8'));
    const text = new Map(lines.map((l) => [l.n, l.text] as const));
    const first = lineNo(id, /_ ERROR collecting tests\/unit\/vizro-ai\/chains\/test_llm_models\.py _/);
    const second = lineNo(id, /_ ERROR collecting tests\/unit\/vizro-ai\/dashboard\/nodes _/);
    const a: Block = { start: first, end: second - 1, header: first, kind: 'error', score: 1.2, why: [], source: 'matcher' };
    const b: Block = { start: second, end: second + 30, header: second, kind: 'error', score: 1.2, why: [], source: 'matcher' };
    expect(mergeBlocks([a, b], text)).toHaveLength(2);
    // Without a title at the seam, touching blocks are still one.
    expect(mergeBlocks([a, { ...b, start: second + 1 }].map((x, i) => (i ? { ...x, start: second } : { ...x, end: second - 1 })), new Map())).toHaveLength(1);
  });
});

describe('a summary beside the detail blocks', () => {
  it('is left out when it only counts (jest’s `Tests: 1 failed, … total`)', async () => {
    const d = await diagnose({ log: wild('gha-javascript-jest-2544418976') });
    const quoted = d.evidence.map((e) => e.text);
    expect(quoted.length).toBeGreaterThan(0);
    expect(quoted.some((t) => /Tests:\s+1 failed, 7 skipped/.test(t))).toBe(false);
  });
});

describe('a structured log’s fatal line', () => {
  it('is quoted though its message ends with the exit status (real drone exec log, logrus)', async () => {
    const d = await diagnose({ log: wild('drone-exec-noproxy-docker-auth') });
    expect(d.evidence.map((e) => e.text)).toEqual(['time="2018-06-22T11:16:12Z" level=fatal msg="Error authenticating: exit status 1"']);
  });
});

describe('a Rust panic that names its location', () => {
  it('is quoted without the `stack backtrace:` under it (real cargo test run, RUST_BACKTRACE=1)', async () => {
    const d = await diagnose({ log: wild('rec-gha-cargo-test-scaffold') });
    const quoted = d.evidence.map((e) => e.text);
    expect(quoted).toContain("thread 'tests::it_works' (28536) panicked at src/lib.rs:12:9:");
    expect(quoted).toContain('assertion `left == right` failed');
    expect(quoted).not.toContain('stack backtrace:');
    expect(quoted.some((t) => /^\s*\d+: |^\s*at \.\/src\/lib\.rs/.test(t))).toBe(false);
  });
});
