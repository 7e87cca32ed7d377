import { describe, expect, it } from 'vitest';
import { findGenericBlocks, locationsIn } from '../../src/evidence/index.js';
import { categoriseEvidence } from '../../src/extract/categorise-evidence.js';
import { genericErrorsMatcher } from '../../src/extract/matchers/generic-errors.js';
import { logLines } from '../helpers/log.js';
import type { Block } from '../../src/evidence/index.js';

/** Location forms, block and category rules read off the twelfth batch of unseen toolchains' recorded output (fixtures/logs). */
const lines = (c: string) => logLines(`fixtures/logs/${c}/log.txt`);
const block = (start: number, end: number, header = start): Block => ({ start, end, header, kind: 'diagnostic', score: 1, why: [], source: 'generic' });
const textOf = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.text;
const at = (c: string, text: string) => lines(c).find((l) => l.text.includes(text))!.n;
const category = (text: string) => categoriseEvidence({ matched: 'unknown', signals: [], blocks: [block(1, 1)], textOf: () => text });

describe('location forms of the twelfth unseen batch', () => {
  it("reads Icon's `File base64.icn; Line 58 # \";\": missing right parenthesis`", () => {
    expect(locationsIn(textOf('icont-unclosed-paren-base64-decode', 'missing right parenthesis'))).toEqual([{ path: 'base64.icn', line: 58 }]);
  });

  it('reads a file then the word `line` and its number, no colon between (sshd, lighttpd, checkbashisms)', () => {
    expect(locationsIn(textOf('sshd-t-subsystem-in-match-block', 'not allowed within'))).toEqual([{ path: 'ssh/sshd_config', line: 129 }]);
    expect(locationsIn(textOf('lighttpd-t-duplicate-index-file-names', 'parser failed'))).toEqual([{ path: 'lighttpd/lighttpd.conf', line: 59 }]);
    expect(locationsIn(textOf('checkbashisms-double-equals-debianutils-savelog', 'possible bashism'))).toEqual([{ path: 'bin/savelog', line: 203 }]);
    // a word, not a file: no directory and no extension
    expect(locationsIn('the first line 3 times')).toEqual([]);
  });

  it("reads Babel's `SyntaxError: /x/src/jsesc.js: Unexpected token, expected \",\" (111:2)`", () => {
    expect(locationsIn(textOf('babel-missing-comma-jsesc-defaults', 'SyntaxError:'))).toEqual([
      { path: expect.stringMatching(/\/src\/jsesc\.js$/), line: 111, column: 2 },
    ]);
  });

  it("reads a file in a directory whatever its extension, even a host's ending (BIND's `bind/db.local:15:`); a bare host stays out", () => {
    expect(locationsIn(textOf('named-checkzone-mx-missing-preference-db-local', 'dns_rdata_fromtext'))).toEqual([{ path: 'bind/db.local', line: 15 }]);
    expect(locationsIn('connect to registry.example.local:443: refused')).toEqual([]);
    expect(locationsIn('fetch https://mirror.example.local:8080/x failed')).toEqual([]);
  });

  it("heads a block with the located report above the tool's line that it failed (BIND's rdata error over `loading … failed`)", () => {
    const c = 'named-checkzone-mx-missing-preference-db-local';
    const n = at(c, 'dns_rdata_fromtext');
    const step = lines(c).filter((l) => l.n >= n && l.n <= n + 2);
    expect(findGenericBlocks({ lines: step }).map((b) => b.header)).toContain(n);
    expect(genericErrorsMatcher.extract(step).map((s) => s.logLine)).toContain(n);
  });

  it('calls what the batch reported by its kind: a value that is not valid or a directive not allowed compile, a suspected bashism lint', () => {
    expect(category(textOf('named-checkzone-mx-missing-preference-db-local', 'dns_rdata_fromtext'))).toBe('compile');
    expect(category(textOf('sshd-t-subsystem-in-match-block', 'not allowed within'))).toBe('compile');
    expect(category(textOf('icont-unclosed-paren-base64-decode', 'missing right parenthesis'))).toBe('compile');
    expect(category(textOf('checkbashisms-double-equals-debianutils-savelog', 'possible bashism'))).toBe('lint');
  });

  // Rules added after the out-of-sample four (ksh, the one true awk, vulture, terser) were scored.
  it("reads ksh's `bin/zgrep: syntax error at line 202: …` (a script with a directory, no extension); its warnings stay unplaced", () => {
    expect(locationsIn(textOf('ksh-n-missing-then-gzip-zgrep', 'syntax error at line'))).toEqual([{ path: 'bin/zgrep', line: 202 }]);
    expect(locationsIn(textOf('ksh-n-missing-then-gzip-zgrep', 'quote may be missing'))).toEqual([]);
  });

  it("reads the one true awk's ` source line number 16 source file deps.awk`", () => {
    expect(locationsIn(textOf('original-awk-unclosed-regex-group-mawk-deps', 'source line number'))).toEqual([{ path: 'deps.awk', line: 16 }]);
    expect(locationsIn('the line 3 of the poem')).toEqual([]);
  });
});
