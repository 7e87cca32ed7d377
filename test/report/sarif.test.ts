import { describe, expect, it } from 'vitest';
import { renderSarif } from '../../src/report/sarif.js';
import { ALNUM, located, noLocation, randomText } from './make.js';

describe('renderSarif', () => {
  it('writes SARIF 2.1.0 as GitHub code scanning expects it', () => {
    const sarif = JSON.parse(renderSarif(located({}, { endLine: 13 }), { toolVersion: '0.1.0', informationUri: 'https://example.com/redline' }));
    expect(sarif.$schema).toBe('https://json.schemastore.org/sarif-2.1.0.json');
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs).toHaveLength(1);
    const driver = sarif.runs[0].tool.driver;
    expect(driver).toMatchObject({ name: 'Redline', version: '0.1.0', semanticVersion: '0.1.0', informationUri: 'https://example.com/redline' });
    expect(driver.rules).toHaveLength(1);
    const rule = driver.rules[0];
    expect(rule.id).toBe('redline/compile');
    expect(rule.shortDescription.text).toBeTruthy();
    expect(rule.fullDescription.text).toBeTruthy();
    expect(rule.help.text).toBeTruthy();
    expect(rule.shortDescription.text.length).toBeLessThanOrEqual(1024);

    const [result] = sarif.runs[0].results;
    expect(result.ruleId).toBe('redline/compile');
    expect(result.ruleIndex).toBe(0);
    expect(result.level).toBe('error');
    expect(result.message.text).toBe("Type 'string' is not assignable to type 'number'.");
    expect(result.locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: 'src/a.ts', uriBaseId: '%SRCROOT%' },
          region: { startLine: 12, startColumn: 5, endLine: 13 },
        },
      },
    ]);
    expect(result.partialFingerprints.primaryLocationLineHash).toMatch(/^[0-9a-f]{16}:1$/);
  });

  it('keeps the fingerprint stable when the line moves, and different for another message', () => {
    const fp = (d: ReturnType<typeof located>): string =>
      JSON.parse(renderSarif(d, { toolVersion: '1.0.0' })).runs[0].results[0].partialFingerprints.primaryLocationLineHash;
    expect(fp(located({}, { line: 40 }))).toBe(fp(located()));
    expect(fp(located({}, { message: 'other' }))).not.toBe(fp(located()));
  });

  it('numbers identical results so their fingerprints differ', () => {
    const d = located();
    d.findings.push({ ...d.findings[0]!, line: 30 });
    const results = JSON.parse(renderSarif(d, { toolVersion: '1' })).runs[0].results;
    expect(results[0].partialFingerprints.primaryLocationLineHash.endsWith(':1')).toBe(true);
    expect(results[1].partialFingerprints.primaryLocationLineHash.endsWith(':2')).toBe(true);
  });

  it('has no results for a no-location diagnosis, but still names its rule', () => {
    const sarif = JSON.parse(renderSarif(noLocation(), { toolVersion: '0.1.0' }));
    expect(sarif.runs[0].results).toEqual([]);
    expect(sarif.runs[0].tool.driver.rules[0].id).toBe('redline/infra');
  });

  it('writes relative URIs with / and percent-encoding; omits optional fields', () => {
    const sarif = JSON.parse(
      renderSarif(located({}, { file: '.\\src\\my file.ts', column: undefined }), { toolVersion: 'dev' }),
    );
    const loc = sarif.runs[0].results[0].locations[0].physicalLocation;
    expect(loc.artifactLocation.uri).toBe('src/my%20file.ts');
    expect(loc.region).toEqual({ startLine: 12 });
    expect(sarif.runs[0].tool.driver.semanticVersion).toBeUndefined();
    expect(sarif.runs[0].tool.driver.informationUri).toBeUndefined();
  });

  it('declares %SRCROOT% when the checkout root is known', () => {
    const sarif = JSON.parse(renderSarif(located(), { toolVersion: '1.0.0', srcRootUri: 'file:///home/runner/work/r/r' }));
    expect(sarif.runs[0].originalUriBaseIds['%SRCROOT%'].uri).toBe('file:///home/runner/work/r/r/');
  });

  it('redacts secrets in messages', () => {
    const tok = 'gh' + 'u_' + randomText(36, ALNUM, 3);
    const out = renderSarif(located({}, { message: `bad credentials ${tok}` }), { toolVersion: '1.0.0' });
    expect(out).not.toContain(tok);
  });
});
