import { describe, expect, it } from 'vitest';
import { linkcheckerMatcher } from '../../../src/extract/matchers/linkchecker.js';
import { logLines } from '../../helpers/log.js';

const H = '/home/runner/work/mime-spec/mime-spec/spec';

describe('linkcheckerMatcher', () => {
  it('reads every `Result     Error:` record, pinned to its Parent URL page, line and column', () => {
    const log = logLines('fixtures/recorded/link-check/linkchecker.log');
    const signals = linkcheckerMatcher.extract(log);
    expect(signals).toHaveLength(10);
    expect(signals.find((s) => s.symbol === 'x479.html')).toEqual({ kind: 'diagnostic', symbol: 'x479.html', path: `${H}/b518.html`, line: 11,
      column: 19, message: `broken link x479.html: URLError: <urlopen error [Errno 2] No such file or directory: '${H}/x479.html'>`,
      tool: 'linkchecker', severity: 'error', category: 'lint', weight: 0.8, logLine: 45, related: [46, 47, 48, 49] });
    expect(log.find((l) => l.n === 45)!.text).toBe("URL        `x479.html'");
    expect(signals.filter((s) => s.symbol!.startsWith('mailto:')).map((s) => [s.path!.slice(H.length + 1), s.line])).toContainEqual(['index.html', 57]);
  });

  it('returns nothing for other tools', () => {
    expect(linkcheckerMatcher.extract(logLines('fixtures/recorded/link-check/htmlproofer.log'))).toEqual([]);
    expect(linkcheckerMatcher.extract(logLines('fixtures/recorded/web/markdown-link-check.log'))).toEqual([]);
  });
});
