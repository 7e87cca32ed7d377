import { describe, expect, it } from 'vitest';
import { commonTestMatcher } from '../../../src/extract/matchers/common-test.js';
import { logLines } from '../../helpers/log.js';

const H = '/home/runner/work/recon/recon';

describe('commonTestMatcher', () => {
  it("pins a failed match to the suite's own line, with no frame for OTP's test_server", () => {
    const log = logLines('fixtures/recorded/common-test/rebar3-ct-badmatch.log');
    expect(commonTestMatcher.extract(log)).toEqual([{ kind: 'test', symbol: 'scheduler_usage_diff', path: `${H}/test/recon_lib_SUITE.erl`, line: 11,
      message: 'recon_lib_SUITE:scheduler_usage_diff failed: {badmatch,[{1,1.0}]}', tool: 'common-test', category: 'test', weight: 0.9,
      logLine: 13, related: [14, 15, 16, 17, 18, 19, 20] }]);
    expect(log.find((l) => l.n === 13)!.text).toBe('%%% recon_lib_SUITE ==> scheduler_usage_diff: FAILED');
  });

  it('pins a crash to the first entry in the repository (the code under test), the callers as frames', () => {
    const signals = commonTestMatcher.extract(logLines('fixtures/recorded/common-test/rebar3-ct-badarg.log'));
    const tests = signals.filter((s) => s.kind === 'test');
    expect(tests.map((s) => [s.symbol, s.path?.slice(H.length + 1), s.line])).toEqual([
      ['info.info3', 'src/recon_lib.erl', 178],
      ['info.info4', 'src/recon_lib.erl', 178],
      ['info.info1', 'src/recon_lib.erl', 178],
      ['info.info2', 'test/recon_SUITE.erl', 125], // a knock-on badmatch in the suite itself
      ['get_state', 'src/recon_lib.erl', 178],
      ['term_to_pid', 'src/recon_lib.erl', 178],
    ]);
    expect(signals.filter((s) => s.kind === 'frame' && s.logLine < 27).map((s) => [s.symbol, s.path?.slice(H.length + 1), s.line, s.logLine])).toEqual([
      ['info', 'src/recon.erl', 156, 17],
      ['info3', 'test/recon_SUITE.erl', 61, 20],
    ]);
    expect(signals.every((s) => s.path?.startsWith(H))).toBe(true);
    expect(tests[0]!.message).toBe('recon_SUITE:info.info3 failed: badarg');
  });

  it('returns nothing for other tools', () => {
    expect(commonTestMatcher.extract(logLines('fixtures/recorded/eunit/rebar3-eunit.log'))).toEqual([]);
    expect(commonTestMatcher.extract(logLines('fixtures/recorded/terraform/plan.log'))).toEqual([]);
  });
});
