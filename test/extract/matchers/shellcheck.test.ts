import { describe, expect, it } from 'vitest';
import { shellcheckMatcher } from '../../../src/extract/matchers/shellcheck.js';
import { logLines } from '../../helpers/log.js';
import { diagnose } from '../../../src/diagnose.js';

const rec = (f: string) => shellcheckMatcher.extract(logLines(`fixtures/recorded/shellcheck/${f}`));

describe('shellcheckMatcher', () => {
  it('reads the tty format: the `In … line N:` header and quoted line as related, the column from the carets', () => {
    const signals = rec('shellcheck.log');
    expect(signals.map((s) => [s.line, s.column, s.symbol, s.weight, s.logLine, s.related])).toEqual([
      [7, 6, 'SC2086', 0.6, 4, [2, 3]],
      [9, 6, 'SC2086', 0.6, 12, [10, 11]],
      [10, 21, 'SC2154', 0.9, 20, [18, 19]],
    ]);
    expect(signals[2]).toMatchObject({ path: 'scripts/deploy.sh', message: 'SC2154: tagret is referenced but not assigned.', category: 'lint' });
  });

  it('reads the gcc format to the same locations', () => {
    expect(rec('shellcheck-gcc.log').map((s) => [s.path, s.line, s.column, s.symbol])).toEqual(
      rec('shellcheck.log').map((s) => [s.path, s.line, s.column, s.symbol]));
  });

  it('returns nothing for other tools', () => {
    expect(shellcheckMatcher.extract(logLines('fixtures/logs/gcc-compile-error/log.txt'))).toEqual([]);
    expect(shellcheckMatcher.extract(logLines('fixtures/recorded/tap/bats.log'))).toEqual([]);
  });

  it("reads an older ShellCheck's unlevelled marks (`^-- SC2123: …`) as 0.9 reads the same script (monitoring-plugins' check_log.sh)", () => {
    const old = shellcheckMatcher.extract(logLines('fixtures/wild/plain-shell-monitoring-plugins-shellcheck/log.txt'));
    const now = rec('check_log.log');
    expect(old.slice(0, 3).map((s) => [s.path, s.line, s.symbol])).toEqual([
      ['plugins-scripts/check_log.sh', 61, 'SC2123'], ['plugins-scripts/check_log.sh', 63, 'SC2006'], ['plugins-scripts/check_log.sh', 63, 'SC2086']]);
    expect(old.slice(0, 3).map((s) => [s.path, s.line, s.symbol])).toEqual(now.slice(0, 3).map((s) => [s.path, s.line, s.symbol]));
  });

  it('quotes the first report first and pins it, in either format', async () => {
    for (const log of ['fixtures/wild/plain-shell-monitoring-plugins-shellcheck/log.txt', 'fixtures/recorded/shellcheck/check_log.log']) {
      const d = await diagnose({ log });
      expect(d.category).toBe('lint');
      expect(d.evidence[0]!.text).toBe('In plugins-scripts/check_log.sh line 61:');
      expect(d.findings[0]).toMatchObject({ file: 'plugins-scripts/check_log.sh', line: 61 });
    }
  });
});
