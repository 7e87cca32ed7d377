import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { diagnose } from '../../src/diagnose.js';

/**
 * Misses left on real Travis logs (fixtures/wild/, each label.json names its source): a report's excerpt
 * after a blank line, a checker's unlevelled reports inside the goal that failed, and a push refused by
 * the git host.
 */
const wild = (id: string) => new URL(`../../fixtures/wild/${id}/log.txt`, import.meta.url).pathname;
const lineNo = (id: string, re: RegExp, from = 0) => {
  const lines = readFileSync(wild(id), 'utf8').split('\n');
  const i = lines.findIndex((l, k) => k >= from && re.test(l));
  if (i < 0) throw new Error(`${re} not in ${id}`);
  return i + 1;
};
const evidenceOf = async (id: string) => (await diagnose({ log: wild(id) })).evidence.map((e) => e.line);

describe("Sphinx's report with its excerpt", () => {
  it('quotes the source lines the located report announces with its colon, across the blank line (symfony-cmf-docs)', async () => {
    const id = 'travis-dissection-symfony-cmf-docs-sphinx-warning';
    const report = lineNo(id, /routing\.rst:196: SEVERE: Title level inconsistent:/);
    const title = lineNo(id, /^Styling the Frontend Link/);
    const ev = await evidenceOf(id);
    expect(ev).toContain(report);
    expect(ev).toContain(title);
    expect(ev).toContain(title + 1);
    expect(ev).not.toContain(title + 3);
  });
});
