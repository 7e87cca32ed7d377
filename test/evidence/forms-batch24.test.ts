import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { FAULT_WORDS } from '../../src/evidence/vocabulary.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Category and locate rules read off batch 24's unseen toolchains (p22tool), on their recorded logs. */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number): Block => ({ start, end, header: start, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });
const recorded = (c: string, has: string) => lines(c).find((l) => l.text.includes(has))!.text;

describe('fault words', () => {
  it("a parser's `mismatched tag` names a fault, so a lone located report of it is compile, not lint (xmlwf)", () => {
    const report = recorded('xmlwf-mismatched-summary-tag-proxy-gschema', 'mismatched tag');
    expect(FAULT_WORDS.test(report)).toBe(true);
    expect(category(report)).toBe('compile');
    // a report that names no fault stays a checker's finding
    expect(category('schemas/a.xml:10:41: tag summary')).toBe('lint');
  });

  it("`Neither a valid … nor …` says not valid: the located report heads the block the tool's `fatal error` line closes (systemd-analyze)", async () => {
    expect(FAULT_WORDS.test(recorded('systemd-analyze-relative-execstart-logrotate-service', 'Neither a valid executable name'))).toBe(true);
    const r = await evaluateCase('systemd-analyze-relative-execstart-logrotate-service', diagnoseWithTrace, {});
    expect(r.diagnosis.evidence.some((e: { text: string }) => e.text.includes('Neither a valid executable name'))).toBe(true);
    expect(r.diagnosis.category).toBe('compile');
  });
});

describe('late reports', () => {
  it("a parser's own error class (`SvgoParserError`) is a reader's fault: its report under the line the PR changed takes that line", async () => {
    const r = await evaluateCase('svgo-unclosed-attribute-quote-wacom-layout', diagnoseWithTrace, {});
    expect(`${r.diagnosis.findings[0]?.file}:${r.diagnosis.findings[0]?.line}`).toBe('layouts/bamboo-4fg-s-t.svg:30');
    // without the diff the reported line stands: nothing says the quote above was meant to close
    const n = await evaluateCase('svgo-unclosed-attribute-quote-wacom-layout', diagnoseWithTrace, { noBase: true });
    expect(n.diagnosis.findings[0]?.line).toBe(31);
  });

  it("`unexpected '=', expecting ';'` after a line's first word: the code line above lost the separator, without the diff too (Nix)", async () => {
    const c = 'nix-instantiate-missing-semicolon-flake-utils-each-system';
    for (const noBase of [false, true]) {
      const r = await evaluateCase(c, diagnoseWithTrace, { noBase });
      expect(`${r.diagnosis.findings[0]?.file}:${r.diagnosis.findings[0]?.line}`, `noBase ${noBase}`).toBe('lib.nix:36');
    }
  });
});

describe('second round (after the held-out five were measured)', () => {
  it("a parser's list of the tokens it could have taken is compile (i3's `Expected one of these tokens:`)", () => {
    expect(category(recorded('i3-misspelled-floating-modifier-config', 'Expected one of these tokens'))).toBe('compile');
  });

  it("the runner's checkout folder, named for the repository, lends the report no words (a repository named `i3-misspelled-…`)", () => {
    const inFile = recorded('i3-misspelled-floating-modifier-config', '(in file ');
    expect(inFile).toContain('/home/runner/work/i3-misspelled-floating-modifier-config/');
    expect(category(inFile)).toBe('unknown');
    // the same words outside the checkout's path still count
    expect(category('README.md:3: misspelled word: recieve')).toBe('lint');
  });
});
