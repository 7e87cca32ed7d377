import { describe, expect, it } from 'vitest';
import { findGenericBlocks, locationsIn, signalsFromBlocks } from '../../src/evidence/index.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';

/** Location forms, block, category and pin rules read off the fifteenth batch of unseen toolchains' recorded output (fixtures/logs). */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const textOf = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.text;
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });
const stepBlocks = (c: string, from: string, to: string) => findGenericBlocks({ lines: lines(c).filter((l) => l.n >= at(c, from) && l.n <= at(c, to)) });

describe('location forms of the fifteenth unseen batch', () => {
  it("reads Icinga's `Location: in icinga2/conf.d/hosts.conf: 25:3-25:31` (a place after `in <file>: ` as line:column)", () => {
    expect(locationsIn(textOf('icinga2-daemon-c-unknown-check-command-host', 'Location: in'))).toEqual([{ path: 'icinga2/conf.d/hosts.conf', line: 25, column: 3 }]);
    // a sentence's `in a.txt: 3 of 4 done` has no column: no place
    expect(locationsIn('wrote results in out.txt: 3 of 4 done')).toEqual([]);
  });

  it("reads AppArmor's `parser error for apparmor.d/usr.bin.man in profile … at line 24:` (out of sample)", () => {
    expect(locationsIn(textOf('apparmor-parser-missing-comma-man-groff', 'AppArmor parser error'))).toEqual([{ path: 'apparmor.d/usr.bin.man', line: 24 }]);
  });

  it("reads rsyslog's `error during parsing file rsyslog/rsyslog.conf, on or before line 31:`", () => {
    expect(locationsIn(textOf('rsyslogd-n1-unclosed-input-udp', 'syntax error on token'))).toEqual([{ path: 'rsyslog/rsyslog.conf', line: 31 }]);
  });
});

describe('blocks and places of the fifteenth unseen batch', () => {
  it("keeps a located fault report under the header that announces it (CUPS' `Unknown directive X on line 23 of /x/cupsd.conf.`)", () => {
    const c = 'cupsd-t-unknown-directive-browse-local-protocol';
    const blocks = stepBlocks(c, 'contains errors', 'Unknown directive');
    expect(blocks.some((b) => b.start <= at(c, 'contains errors') && b.end >= at(c, 'Unknown directive'))).toBe(true);
  });

  it("keeps Icinga's `Location:` line under its error, and reads no report in the source excerpt below a count of errors", () => {
    const c = 'icinga2-daemon-c-unknown-check-command-host';
    const blocks = stepBlocks(c, 'Validation failed', 'Location: in');
    expect(blocks.some((b) => b.end >= at(c, 'Location: in'))).toBe(true);
    const all = lines(c);
    const count = at(c, 'critical/config: 1 error');
    expect(signalsFromBlocks([block(count, count)], all, 'unknown').filter((s) => s.line !== undefined)).toEqual([]);
  });

  it("keeps a table's rows under their file's heading and places them there (SQLFluff's `L:  36 | P:   1 | L010 | …`)", () => {
    const c = 'sqlfluff-lowercase-keyword-pgstattuple';
    const blocks = findGenericBlocks({ lines: lines(c) });
    expect(blocks.some((b) => b.end >= at(c, 'Keywords must'))).toBe(true);
    const all = lines(c);
    const s = signalsFromBlocks([block(at(c, '] FAIL'), at(c, 'Keywords must'))], all, 'unknown').filter((x) => x.line !== undefined);
    expect(s.map((x) => `${x.path}:${x.line}`)).toContain('contrib/pgstattuple/pgstattuple--1.4.sql:36');
  });

  it("heads bmake's block with its located `Malformed conditional` report over `Fatal errors encountered` (out of sample)", () => {
    const c = 'bmake-malformed-conditional-host-target';
    const blocks = stepBlocks(c, 'Malformed conditional', 'Fatal errors encountered');
    expect(blocks.map((b) => b.header)).toContain(at(c, 'Malformed conditional'));
  });

  it("heads Ledger's error with its context trail (`While parsing file \"x\", line 42:` … `Error: Transaction does not balance`)", () => {
    const c = 'ledger-unbalanced-transaction-book-store-sample';
    const blocks = stepBlocks(c, 'While parsing file', 'does not balance');
    expect(blocks.some((b) => b.start === at(c, 'While parsing file') && b.end >= at(c, 'does not balance'))).toBe(true);
    // a context line that names no place heads nothing
    const plain = [
      { n: 1, text: 'While loading plugins:' },
      { n: 2, text: 'Error: something broke' },
    ];
    expect(findGenericBlocks({ lines: plain }).some((b) => b.start === 1)).toBe(false);
  });

  it('calls what the batch reported by its kind', () => {
    expect(category(textOf('dhcpd-t-missing-semicolon-routers-subnet', 'semicolon expected'))).toBe('compile');
    expect(category(textOf('doveconf-unknown-setting-maildir-mail-conf', 'Unknown setting'))).toBe('compile');
    expect(category(textOf('promtool-check-config-unknown-field-metric-path', 'not found in type'))).toBe('compile');
    expect(category(textOf('sqlfluff-lowercase-keyword-pgstattuple', 'Keywords must'))).toBe('lint');
  });
});

describe('pins of the fifteenth unseen batch (with the PR diff)', () => {
  // Each a rule in src/locate/from-signals.ts; the reported line is not the one the PR broke.
  const cases: [string, string][] = [
    ['dhcpd-t-missing-semicolon-routers-subnet', 'a missing separator reported on a line that has it takes the changed line above that lacks it'],
    ['rsyslogd-n1-unclosed-input-udp', "a parser's `error during parsing` read past the change that left a bracket open"],
    // out of sample: a parse error naming no token, below an added line that lacks its neighbour's separator
    ['openscad-missing-semicolon-body-radius-csg-modules', "an added statement without the `;` the statement above ends with"],
    ['apparmor-parser-missing-comma-man-groff', "an added rule without the `,` the rule above ends with"],
  ];
  for (const [name, why] of cases) {
    it(`${name}: ${why}`, async () => {
      const r = await evaluateCase(name, diagnoseWithTrace);
      expect(r.top1Line, `${r.diagnosis.findings[0]?.file}:${r.diagnosis.findings[0]?.line}`).toBe(true);
      expect(r.categoryOk).toBe(true);
    });
  }
});
