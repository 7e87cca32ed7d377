import { describe, expect, it } from 'vitest';
import { renderJson } from '../../src/report/json.js';
import { ALNUM, located, noLocation, randomText } from './make.js';

describe('renderJson', () => {
  it('writes the versioned contract with keys in order and a trailing newline', () => {
    const out = renderJson(located());
    expect(out.endsWith('}\n')).toBe(true);
    expect(out.startsWith('{\n  "version": 2,\n  "status": "located",')).toBe(true);
    const obj = JSON.parse(out);
    expect(Object.keys(obj)).toEqual([
      'version', 'status', 'category', 'findings', 'evidence', 'failingStep', 'summary', 'stats',
    ]);
    expect(Object.keys(obj.findings[0])).toEqual(['file', 'line', 'column', 'message', 'confidence', 'cause', 'evidence']);
    expect(obj.findings[0].confidence).toBe(0.92);
    expect(Object.keys(obj.stats)).toEqual(['bytes', 'lines', 'signals', 'candidates', 'ms']);
    expect(obj.failingStep).toEqual({ name: 'Build', startLine: 100, endLine: 130 });
  });

  it('keeps optional keys in their place when present and omits undefined ones', () => {
    const d = located({ stats: { bytes: 1, lines: 2, signals: 3, candidates: 4, filesInRepo: 5, changedFiles: undefined, ms: 6, truncated: true } }, {
      endLine: 14,
      symbol: 'total',
      evidence: [{ text: 'no line number' }],
    });
    const obj = JSON.parse(renderJson(d));
    expect(Object.keys(obj.findings[0])).toEqual([
      'file', 'line', 'endLine', 'column', 'message', 'confidence', 'cause', 'symbol', 'evidence',
    ]);
    expect(obj.findings[0].evidence).toEqual([{ text: 'no line number' }]);
    expect(Object.keys(obj.stats)).toEqual(['bytes', 'lines', 'signals', 'candidates', 'filesInRepo', 'ms', 'truncated']);
  });

  it('prints null failingStep and empty findings for a no-location diagnosis', () => {
    const obj = JSON.parse(renderJson(noLocation()));
    expect(obj.failingStep).toBeNull();
    expect(obj.findings).toEqual([]);
    expect(obj.status).toBe('no-location');
  });

  it('redacts secrets in every string, and the JSON stays valid', () => {
    const token = 'gh' + 'p_' + randomText(36, ALNUM, 1);
    const pw = 'db_pass' + 'word="' + randomText(24, ALNUM, 2) + '\\"x"';
    const d = located({ evidence: [{ line: 5, text: `GITHUB_TOKEN=${token}` }, { line: 6, text: pw }] }, { message: `auth failed for ${token}` });
    const out = renderJson(d);
    const obj = JSON.parse(out);
    expect(out).not.toContain(token);
    expect(obj.findings[0].message).toBe('auth failed for [REDACTED:github-token]');
    expect(obj.evidence[0].text).toBe('GITHUB_TOKEN=[REDACTED:github-token]');
    expect(obj.evidence[1].text).toContain('[REDACTED:generic]');
  });
});
