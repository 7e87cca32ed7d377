import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/** A reader's report on an unchanged line right under the PR's change (recorded golden cases, with their base). */
const top = async (c: string, noBase = false) => {
  const r = await evaluateCase(c, diagnoseWithTrace, { noBase });
  const f = r.diagnosis.findings[0];
  return f ? `${f.file}:${f.line}` : r.diagnosis.status;
};

describe('a reader stumbling on the line after the change', () => {
  it("json5's `invalid character '\"' at 12:3` is the line 11 whose comma the PR dropped", async () => {
    expect(await top('json5-missing-comma-range-parser-package')).toBe('package.json:11');
    // without the diff there is nothing to say the fault is above: the report's own line
    expect(await top('json5-missing-comma-range-parser-package', true)).toBe('package.json:12');
  });

  it('a report on a line the PR changed stays there (acorn on the expression the PR broke)', async () => {
    expect(await top('acorn-missing-plus-etag-entitytag')).toBe('index.js:57');
  });
});
