import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the benchmark
import { evaluateCase } from '../../scripts/eval-cases.mjs';
import { diagnoseWithTrace } from '../../src/diagnose.js';
import { signalsFromBlocks } from '../../src/evidence/index.js';
import { locationsIn } from '../../src/evidence/read-locations.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Place, category and locate rules read off batch 20's unseen Debian toolchains (p20tool), on their recorded logs. */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });
const signalsOf = (c: string, from: string, to: string) => {
  const b = block(at(c, from), at(c, to));
  return signalsFromBlocks([b], lines(c), 'unknown').filter((s) => s.line !== undefined).map((s) => `${s.path}:${s.line}`);
};

describe('place forms', () => {
  it("reads the flat assembler's `file [N]:` heading and its macro's `file [N] name [M]:`", () => {
    expect(locationsIn('src/libcdemo.asm [21]:')).toEqual([{ path: 'src/libcdemo.asm', line: 21 }]);
    expect(locationsIn('src/ccall.inc [17] ccall [14]:')).toEqual([{ path: 'src/ccall.inc', line: 17 }]);
    expect(locationsIn('see src/libcdemo.asm [21]: and more')).toEqual([]);
  });

  it("places fasm's report at the chain's outermost heading, the code that called the macro", () => {
    const c = 'fasm-undefined-symbol-in-ccall-macro';
    expect(signalsOf(c, "error: undefined symbol 'mesg'", "error: undefined symbol 'mesg'")).toEqual(['src/libcdemo.asm:21']);
  });

  it("reads Faust's `file : N : ERROR : …` fields", () => {
    expect(locationsIn('generator/noise.dsp : 30 : ERROR : syntax error, unexpected BDOC')).toEqual([{ path: 'generator/noise.dsp', line: 30 }]);
  });

  it("reads ATS' offsets that name their line, `file: 3178(line=129, offs=50) -- …`", () => {
    const c = 'patsopt-unsolved-constraint-funralist-cons';
    expect(signalsOf(c, 'error(3): unsolved constraint', 'error(3): unsolved constraint')[0]).toMatch(/libats\/DATS\/funralist_nested\.dats:129$/);
  });

  it("places configparser's `[line 280]:` in the file its report quotes (fail2ban)", () => {
    const c = 'fail2ban-client-test-missing-equals-sshd-port';
    expect(signalsOf(c, 'Source contains parsing errors', 'test configuration failed')).toContain('fail2ban/jail.conf:280');
  });

  it("places Vim's padded `line   38:` in the script named above it", () => {
    const c = 'vim-es-unknown-autocmd-event-gzip-plugin';
    expect(signalsOf(c, 'Error detected while processing', 'E216:').some((s) => s.endsWith('/plugin/gzip.vim:38'))).toBe(true);
  });
});

describe('categories', () => {
  it('a configuration parser that found parsing errors is compile', () => {
    expect(category("ERROR   Failed during configuration: Source contains parsing errors: 'fail2ban/jail.conf'")).toBe('compile');
  });

  it("a type checker's failed verdict is compile (ATS)", () => {
    expect(category('typechecking has failed: there are some unsolved constraints: please inspect the above reported error message(s) for information.')).toBe('compile');
  });

  it("Vim's error while loading a script is compile", () => {
    expect(category('Error detected while processing command line..script /x/plugin/gzip.vim:')).toBe('compile');
  });

  it('a ledger entry that does not balance is a fault, so compile, not lint (bean-check)', async () => {
    const r = await evaluateCase('bean-check-unbalanced-salary-transaction', diagnoseWithTrace, { noBase: true });
    expect(r.diagnosis.category).toBe('compile');
  });
});

describe('second round (after the held-out five)', () => {
  it('a value outside its bounds is a fault, so a located report of it is compile, not lint (OpenNTPD)', () => {
    expect(category('openntpd/ntpd.conf:18: weight must be between 1 and 10')).toBe('compile');
    expect(category('openntpd/ntpd.conf:18: weight is between 1 and 10')).toBe('lint');
  });
});

describe('locate without the diff', () => {
  it("a separator missing before a closing bracket is placed on the code line above the bracket (named-checkconf)", async () => {
    const r = await evaluateCase('named-checkconf-missing-semicolon-forwarders', diagnoseWithTrace, { noBase: true });
    const top = r.diagnosis.findings[0];
    expect(`${top?.file}:${top?.line}`).toBe('bind/named.conf.options:14');
  });
});
