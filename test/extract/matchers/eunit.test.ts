import { describe, expect, it } from 'vitest';
import { eunitMatcher } from '../../../src/extract/matchers/eunit.js';
import { rspecMatcher } from '../../../src/extract/matchers/rspec.js';
import { logLines } from '../../helpers/log.js';
import { diagnose } from '../../../src/diagnose.js';

const H = '/home/runner/work/durations/durations';
const rec = (f: string) => logLines(`fixtures/recorded/eunit/${f}`);

describe('eunitMatcher', () => {
  it("reads eunit's verbose reporter: the test at its own trace entry, src/ entries as frames, OTP's weighing little", () => {
    const signals = eunitMatcher.extract(rec('eunit-verbose.log'));
    const tests = signals.filter((s) => s.kind === 'test');
    expect(tests.map((s) => [s.symbol, s.path, s.line, s.logLine])).toEqual([
      ['format_seconds_test', `${H}/test/durations_tests.erl`, 9, 4],
      ['parse_days_test', `${H}/test/durations_tests.erl`, 15, 21],
      ['zero_test', `${H}/test/durations_tests.erl`, 18, 34],
    ]);
    expect(tests[1]!.message).toBe('called as size_of(100) **error:function_clause');
    const own = signals.filter((s) => s.kind === 'frame' && s.weight === 0.6);
    expect(own.map((s) => [s.symbol, s.line])).toEqual([['size_of', 30], ['token', 28], ['-parse/1-lc$^0/1-0-', 24], ['parse', 24]]);
    expect(signals.filter((s) => s.kind === 'frame' && s.path!.startsWith('eunit_')).every((s) => s.weight === 0.05)).toBe(true);
  });

  it("reads rebar3's RSpec-shaped report, following the error term's {file,…},{line,N} across wrapped lines", () => {
    const log = rec('rebar3-eunit.log');
    const signals = eunitMatcher.extract(log);
    const tests = signals.filter((s) => s.kind === 'test');
    // An assertion failure in rebar3's report has no line of its own: the name is all there is.
    expect(tests.map((s) => [s.symbol, s.path, s.line])).toEqual([
      ['format_seconds_test', undefined, undefined],
      ['parse_days_test', `${H}/test/durations_tests.erl`, 15],
      ['zero_test', undefined, undefined],
    ]);
    expect(tests[0]!.message).toBe('Failure/Error: ?assertEqual([53,57,32,115], durations : format ( 59 )) expected: "59 s" got: "59s"');
    expect(signals.find((s) => s.kind === 'frame')).toMatchObject({ path: `${H}/src/durations.erl`, line: 30, symbol: 'size_of' });
    // rspec.ts leaves this report alone.
    expect(rspecMatcher.extract(log)).toEqual([]);
  });

  it('returns nothing for compile output and other tools', () => {
    expect(eunitMatcher.extract(rec('rebar3-compile.log'))).toEqual([]);
    expect(eunitMatcher.extract(logLines('fixtures/logs/rspec-keyerror-in-lib/log.txt'))).toEqual([]);
  });

  it("reads a cancelled fixture (`*** context setup failed ***`): the crash's top entry is the place, the test module's call only a frame (gproc)", () => {
    const signals = eunitMatcher.extract(rec('gproc-setup-failed-eunit.log'));
    const tests = signals.filter((s) => s.kind === 'test');
    expect(tests.map((s) => [s.symbol, s.path, s.line, s.logLine])).toEqual([['context setup failed', 'test/gproc_test_lib.erl', 53, 3]]);
    // Through eunit's closing summary (`One or more tests were cancelled.`), as for a failed test.
    expect(tests[0]!.related).toEqual([2, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(signals.filter((s) => s.kind === 'frame').map((s) => [s.path, s.line])).toEqual([['test/gproc_remote_tests.erl', 37]]);
  });

  it("reads rebar3's `Pending:` report of the same cancel (`%% Unknown error: {abort, {setup_failed, …`) from its error term", () => {
    const signals = eunitMatcher.extract(rec('gproc-setup-failed-rebar3.log'));
    const tests = signals.filter((s) => s.kind === 'test');
    expect(tests.map((s) => [s.path, s.line, s.logLine])).toEqual([['/home/runner/work/gproc/gproc/test/gproc_test_lib.erl', 53, 11]]);
  });

  it('quotes the cancelled block whole and pins the line that crashed, not the compile warnings above it', async () => {
    for (const f of ['gproc-setup-failed-eunit.log', 'gproc-setup-failed-rebar3.log']) {
      const d = await diagnose({ log: `fixtures/recorded/eunit/${f}` });
      expect(d.category).toBe('test');
      expect(d.findings[0]).toMatchObject({ file: 'test/gproc_test_lib.erl', line: 53 });
      const ev = d.evidence.map((e) => e.text);
      expect(ev.some((t) => /Warning:/.test(t))).toBe(false);
      expect(ev).toContainEqual(expect.stringMatching(/badmatch,\{ok,<[\d.]+>,remote_n1@vm\}/));
    }
  });

  it("quotes `*** error reading file ***` with its `**` message (rebar3 issue 362's pasted run)", async () => {
    const d = await diagnose({ log: 'fixtures/wild/plain-erlang-rebar3-eunit-not-a-directory/log.txt' });
    expect(d.category).toBe('test');
    expect(d.evidence.map((e) => e.line)).toEqual(expect.arrayContaining([11, 12, 16]));
  });
});
