import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { parseUnifiedDiff } from '../../src/repo/diff.js';
import { quoteLeftOpenAbove } from '../../src/locate/quote-left-open.js';

const CASE = 'yash-n-unclosed-quote-savelog';
const diff = parseUnifiedDiff(readFileSync(new URL(`../../fixtures/logs/${CASE}/head.patch`, import.meta.url), 'utf8'));

describe('a quote a change left unpaired, reported where the reader ran out of file', () => {
  it("yash's `bin/savelog:361: the single quotation is not closed` is the echo at line 196 that lost its closing quote", async () => {
    const r = await evaluateCase(CASE, diagnoseWithTrace);
    const f = r.diagnosis.findings[0];
    expect(`${f?.file}:${f?.line}`).toBe('bin/savelog:196');
  });

  // The same break read by the two other shells on this machine (bash 5.2 and dash 0.5.12, `-n bin/savelog`):
  // their reports' words, each at its own line near the file's end.
  it.each([
    ['yash', 361, 'syntax error: the single quotation is not closed'],
    ['dash', 361, 'Syntax error: Unterminated quoted string'],
    ['bash', 358, "unexpected EOF while looking for matching `''"],
  ])('%s: line %i → 196', (_shell, line, message) => {
    expect(quoteLeftOpenAbove(diff, 'bin/savelog', line, message)).toBe(196);
  });

  it('says nothing for a report of another kind, a file the PR left alone, or a change below the report', () => {
    expect(quoteLeftOpenAbove(diff, 'bin/savelog', 361, "syntax error: `fi' is missing")).toBeUndefined();
    expect(quoteLeftOpenAbove(diff, 'bin/other', 361, 'Unterminated quoted string')).toBeUndefined();
    expect(quoteLeftOpenAbove(diff, 'bin/savelog', 150, 'Unterminated quoted string')).toBeUndefined();
  });
});
