import { describe, expect, it } from 'vitest';
import { bazelMatcher } from '../../../src/extract/matchers/bazel.js';
import { logLines } from '../../helpers/log.js';

const BUILD = '/home/runner/work/bzcheck/bzcheck/BUILD';

describe('bazelMatcher', () => {
  it('pins a BUILD file that does not load to its line and column', () => {
    const log = logLines('fixtures/recorded/bazel/bazel-build-name.log');
    expect(bazelMatcher.extract(log)).toEqual([{ kind: 'diagnostic', path: BUILD, line: 1, column: 1,
      message: "name 'sh_tset' is not defined (did you mean 'sh_test'?)", tool: 'bazel', severity: 'error', category: 'compile', weight: 1,
      logLine: log.find((l) => l.text.startsWith(`ERROR: ${BUILD}:1:1:`))!.n }]);
  });

  it("reads every error of a rule's bad attribute", () => {
    expect(bazelMatcher.extract(logLines('fixtures/recorded/bazel/bazel-build-attr.log')).map((s) => [s.line, s.column, s.message])).toEqual([
      [1, 8, "In rule 'check', size 'smal' is not a valid size."],
      [1, 8, "In rule 'check', timeout 'illegal' is not a valid timeout."],
    ]);
  });

  it("pins nothing in Bazel's own external repositories when a fetch fails", () => {
    const log = logLines('fixtures/recorded/bazel/bazel-fetch.log');
    expect(log.some((l) => /^ERROR: \/\S+\/external\/bazel_tools\/\S+BUILD:11:10: /.test(l.text))).toBe(true);
    expect(bazelMatcher.extract(log)).toEqual([]);
  });

  it('returns nothing for other tools', () => {
    expect(bazelMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
    expect(bazelMatcher.extract(logLines('fixtures/recorded/terraform/validate-no-color.log'))).toEqual([]);
    // SWI-Prolog writes Bazel's `ERROR: /path:line:col:` form about a Prolog file
    const swipl = logLines('fixtures/logs/swipl-syntax-error-base32/log.txt');
    expect(swipl.some((l) => /^ERROR: \/\S+\.pl:\d+:\d+: /.test(l.text))).toBe(true);
    expect(bazelMatcher.extract(swipl)).toEqual([]);
  });
});
