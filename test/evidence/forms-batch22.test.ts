import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { locationsIn } from '../../src/evidence/read-locations.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Place, locate and category rules read off the twenty-second batch of unseen Debian toolchains' recorded output. */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const recorded = (c: string, has: string) => lines(c).find((l) => l.text.includes(has))!.text;
const block = (start: number, end: number): Block => ({ start, end, header: start, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });
const top = async (c: string, noBase: boolean) => {
  const r = await evaluateCase(c, diagnoseWithTrace, noBase ? { noBase: true } : {});
  const f = r.diagnosis.findings[0];
  return { at: `${f?.file}:${f?.line}`, category: r.diagnosis.category as string };
};

describe('places', () => {
  it("reads `file:line N:` with a colon before the word line (the xa assembler)", () => {
    expect(locationsIn(recorded('xa-undefined-renamed-iniscreen-pack', ':line 26:'))).toEqual([{ path: 'xa65/pack_eng.a65', line: 26 }]);
  });

  it("reads GNU's header with a column on an extensionless script in a directory (bashate)", () => {
    expect(locationsIn(recorded('bashate-then-on-own-line-pyenv-version-file-read', 'E011'))).toEqual([{ path: 'libexec/pyenv-version-file-read', line: 23, column: 1 }]);
  });

  it("quotes a checker's reports when its only failure words are a tally naming the checker (`1 bashate error(s) found`)", async () => {
    const r = await evaluateCase('bashate-then-on-own-line-pyenv-version-file-read', diagnoseWithTrace, { noBase: true });
    expect((r.diagnosis.evidence as { text: string }[]).map((l) => l.text).join('\n')).toContain('E011 Then keyword is not on same line');
    expect(r.diagnosis.category).toBe('lint');
  });
});

describe('locate', () => {
  it("a report under the source line and caret it quotes is the message, so `expected ';'` on `};` is the line above (rpcgen)", async () => {
    expect((await top('rpcgen-missing-semicolon-new-field-rquota', true)).at).toBe('rpcsvc/rquota.x:30');
    expect((await top('rpcgen-missing-semicolon-new-field-rquota', false)).at).toBe('rpcsvc/rquota.x:30');
  });

  it('without the diff, a missing separator reported on a statement that has its own is the code line above (ISC dhcpd)', async () => {
    expect((await top('dhcpd-t-missing-semicolon-routers-subnet', true)).at).toBe('dhcp/dhcpd.conf:54');
  });

  it("a second report at the header's place adds its detail to the message, so Kamailio's `missing ';'?` is read without the diff", async () => {
    expect((await top('kamailio-c-missing-semicolon-too-many-hops-reply', true)).at).toBe('kamailio/kamailio.cfg:627');
  });

  it('a statement the PR split over two lines dropped the separator the old one ended with (omniidl)', async () => {
    expect((await top('omniidl-missing-semicolon-raises-pollable', false)).at).toBe('idl/pollable.idl:28');
  });

  it("an unknown token literal quoted in quotes of its own is looked for on the line above (Happy's `''%''`)", async () => {
    expect((await top('happy-unknown-token-modulo-calc', true)).at).toBe('happy/Calc.ly:47');
  });
});

describe('categories', () => {
  it('an unknown command at a file\'s line is a directive of that file: compile (H2O); a bare one stays a dependency', () => {
    expect(category(recorded('h2o-t-unknown-command-dir-listing', 'unknown command'))).toBe('compile');
    expect(category('npm error Unknown command: "biuld"')).toBe('dependency');
  });
});
