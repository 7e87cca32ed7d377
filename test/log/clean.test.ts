import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cleanLine, cleanText } from '../../src/log/clean.js';

/**
 * cleanLine / cleanText on real recorded lines: every input is a line of a real log (or a real log
 * transformed byte-wise in the test), never a hand-typed log line.
 */
const REAL = new URL('../../fixtures/real-logs/', import.meta.url);
const LOGS = new URL('../../fixtures/logs/', import.meta.url);
const read = (u: URL) => readFileSync(u, 'utf8');
const rawLines = (u: URL) => read(u).split('\n');

const STAMP = /^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;

describe('cleanLine: Actions timestamps', () => {
  const lines = rawLines(new URL('python-2468864400-orig.log', REAL)).filter((l) => STAMP.test(l));

  it('drops the runner timestamp and nothing else on a plain line', () => {
    expect(lines.length).toBeGreaterThan(500);
    for (const l of lines.slice(0, 200)) {
      if (/[\x1b\r]/.test(l)) continue;
      expect(cleanLine(l)).toBe(l.replace(STAMP, '').trimEnd());
    }
  });

  it('keeps the step header readable for findFailingStep', () => {
    const group = lines.find((l) => l.includes('##[group]Run ./runtests.py'))!;
    expect(cleanLine(group)).toBe('##[group]Run ./runtests.py');
    const exit = lines.find((l) => l.includes('##[error]Process completed'))!;
    expect(cleanLine(exit)).toBe('##[error]Process completed with exit code 1.');
  });

  it('drops a BOM together with the first timestamp (real log starting with U+FEFF)', () => {
    const first = rawLines(new URL('python-25839918303-orig.log', REAL))[0]!;
    expect(first.charCodeAt(0)).toBe(0xfeff);
    expect(cleanLine(first)).toBe("Current runner version: '2.316.1'");
  });

  it('does not strip a timestamp-looking text in the middle of a line', () => {
    const l = lines.find((x) => /\S.*\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(x.replace(STAMP, '')));
    if (!l) return;
    const body = l.replace(STAMP, '');
    expect(cleanLine(l)).toBe(body.replace(/\x1b\[[0-9;]*m/g, '').trimEnd());
  });
});

describe('cleanLine: ANSI colours', () => {
  it('strips SGR codes from a real coloured runner line', () => {
    const l = rawLines(new URL('gradle-2085562467-orig.log', REAL)).find((x) => x.includes('\x1b[36;1m'))!;
    const out = cleanLine(l);
    expect(out).not.toMatch(/\x1b|\[36;1m|\[0m/);
    expect(out).toBe(l.replace(STAMP, '').replace(/\x1b\[[0-9;]*m/g, '').trimEnd());
  });

  it('strips colours from real tool output (cargo, go, eslint) and leaves the words', () => {
    for (const c of ['cargo-clippy-lint', 'go-build-type-error', 'eslint-eqeqeq-unix-format']) {
      const text = read(new URL(`${c}/log.txt`, LOGS));
      for (const { text: t } of cleanText(text)) expect(t).not.toMatch(/[\x1b\x9b]/);
      const coloured = text.split('\n').filter((l) => l.includes('\x1b['));
      expect(coloured.length, c).toBeGreaterThan(0);
      for (const l of coloured) {
        const plain = l.replace(STAMP, '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
        expect(cleanLine(l)).toBe(plain.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, '').trimEnd());
      }
    }
  });

  it('strips a real line whose colour codes sit beside other escapes (cursor moves, erase) as stripAnsi does', () => {
    // The fast path cuts SGR codes alone; a line holding any other sequence goes to stripAnsi whole.
    const text = read(new URL('cargo-clippy-lint/log.txt', LOGS));
    const mixed = text.split('\n').filter((l) => /\x1b\[[0-9;]*m/.test(l) && /\x1b\[[0-9;]*[A-LN-Za-z]/.test(l));
    expect(mixed.length).toBeGreaterThan(0);
    for (const l of mixed) expect(cleanLine(l)).toBe(l.replace(STAMP, '').replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, '').trimEnd());
    // Bytes of a real colour code split by a stray ESC: stripAnsi's reading (the ESC is junk, the rest text).
    const sgr = text.match(/\x1b\[[0-9;]*m/)![0];
    expect(cleanLine('\x1b' + sgr + sgr.slice(1))).toBe(sgr.slice(1));
  });

  it("keeps a Maven `[WARNING]` / `[INFO]` line whole (a `[` first is a Jenkins prefix only before a digit)", () => {
    const lines = rawLines(new URL('maven-1749803252-orig.log', REAL)).filter((l) => /^\S+ \[(?:WARNING|INFO)\] /.test(l) && !/[\x1b\r|]/.test(l));
    expect(lines.length).toBeGreaterThan(10);
    for (const l of lines) expect(cleanLine(l)).toBe(l.replace(STAMP, '').trimEnd());
  });

  it('finds a timestamp hidden behind a colour code', () => {
    const l = rawLines(new URL('python-2468864400-orig.log', REAL)).find((x) => STAMP.test(x))!;
    expect(cleanLine('\x1b[0m' + l)).toBe(cleanLine(l));
  });
});

describe('cleanLine: \\r progress frames and CRLF', () => {
  const real = rawLines(new URL('python-2468864400-orig.log', REAL))
    .slice(960, 1040)
    .map((l) => l.replace(STAMP, ''))
    .filter((l) => l.trim() !== '' && !/[\x1b\r]/.test(l));

  it('keeps only the last non-empty frame of a redrawn line', () => {
    const frames = real.slice(0, 5);
    expect(cleanLine(frames.join('\r'))).toBe(frames[4]!.trimEnd());
    // A trailing \r (the bar clears itself) and empty frames do not wipe the last visible frame.
    expect(cleanLine(frames.join('\r') + '\r\r')).toBe(frames[4]!.trimEnd());
    expect(cleanLine(frames.join('\r') + '\r   \r\x1b[K')).toBe(frames[4]!.trimEnd());
  });

  it('strips the CR of a CRLF line (real CRLF log)', () => {
    const crlf = read(new URL('gradle-7801445827-orig.log', REAL));
    expect(crlf).toContain('\r\n');
    const cleaned = cleanText(crlf);
    for (const l of cleaned) expect(l.text).not.toContain('\r');
    expect(cleaned[0]!.text).toBe('Requested labels: ubuntu-latest');
    expect(cleaned.map((l) => l.text)).toEqual(cleanText(crlf.replace(/\r\n/g, '\n')).map((l) => l.text));
  });

  it('handles frames that carry their own timestamps (a real line redrawn 3 times)', () => {
    const stamped = rawLines(new URL('python-2468864400-orig.log', REAL)).slice(1000, 1003);
    expect(cleanLine(stamped.join('\r'))).toBe(cleanLine(stamped[2]!));
  });
});

describe('cleanLine: control characters', () => {
  const line = rawLines(new URL('python-2468864400-orig.log', REAL))[1050]!; // a ##[error] line

  it('removes NULs, BEL, backspace, DEL and other C0 controls but keeps tabs', () => {
    const text = cleanLine(line);
    const dirty = line.slice(0, 40) + '\x00\x07\x08\x7f\x1f' + line.slice(40);
    expect(cleanLine(dirty)).toBe(text);
    const tabbed = line + '\tend';
    expect(cleanLine(tabbed)).toBe(text + '\tend');
  });

  it('removes C1 CSI (0x9b) sequences', () => {
    expect(cleanLine(line.replace('##[error]', '##[error]\x9b31m'))).toBe(cleanLine(line));
  });

  it('never leaves control characters whatever the junk', () => {
    let junk = '';
    for (let c = 0; c < 0x20; c++) if (c !== 9 && c !== 10) junk += String.fromCharCode(c);
    const out = cleanLine(junk + line + junk);
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(out).toContain('Expected maxsize to be an integer or None');
  });

  it('trims trailing whitespace only', () => {
    const t = cleanLine(line);
    expect(cleanLine(line + '   \t ')).toBe(t);
    expect(t.startsWith('##[error]    raise')).toBe(true);
  });
});

describe('cleanText', () => {
  it('numbers lines from 1 and ignores only one final newline', () => {
    const text = read(new URL('python-2468864400-orig.log', REAL));
    const lines = cleanText(text);
    const expected = text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length;
    expect(lines.length).toBe(expected);
    lines.forEach((l, i) => expect(l.n).toBe(i + 1));
    const ended = text.endsWith('\n') ? text : text + '\n';
    expect(cleanText(ended).length).toBe(lines.length);
    expect(cleanText(ended + '\n').length).toBe(lines.length + 1);
  });

  it('returns nothing for an empty text', () => {
    expect(cleanText('')).toEqual([]);
  });
});

describe('cleanLine: Jenkins Timestamper prefixes', () => {
  const CI = new URL('../../fixtures/ci-formats/', import.meta.url);
  const jenkins = rawLines(new URL('jenkins-pipeline-post-actions.log', CI)).filter((l) => l !== '');
  const CLOCK = /^\d\d:\d\d:\d\d {2}/;

  it('drops the clock form (`22:06:58  `) of a real pipeline console, and nothing else', () => {
    expect(jenkins.every((l) => CLOCK.test(l))).toBe(true);
    for (const l of jenkins) expect(cleanLine(l)).toBe(l.replace(CLOCK, '').trimEnd());
    expect(cleanLine(jenkins.find((l) => l.includes('ERROR: No subscriptions'))!)).toBe('ERROR: No subscriptions found for ****.');
    expect(cleanLine(jenkins.find((l) => l.endsWith('[Pipeline] Start of Pipeline'))!)).toBe('[Pipeline] Start of Pipeline');
  });

  it('drops the ISO form (`[2021-08-17T11:37:12.345Z] `, the pipeline `timestamps` step) of the same lines', () => {
    // The same real lines with the clock rewritten byte-wise into the ISO form the pipeline step prints.
    for (const l of jenkins.slice(0, 40)) {
      const iso = l.replace(/^(\d\d:\d\d:\d\d) {2}/, '[2021-08-17T$1.345Z] ');
      expect(cleanLine(iso)).toBe(l.replace(CLOCK, '').trimEnd());
    }
  });

  it('keeps a time that a tool prints itself (one space, mid-line)', () => {
    const own = rawLines(new URL('jenkins-pipeline-post-actions.log', CI)).map((l) => l.replace(CLOCK, '')).find((l) => /\d\d:\d\d:\d\d/.test(l));
    if (own) expect(cleanLine(own)).toBe(own.trimEnd());
    const azure = rawLines(new URL('azure-rust-71780-excerpt.log', CI)).find((l) => /^\d{4}-\d\d-\d\dT/.test(l));
    if (azure) expect(cleanLine(azure)).not.toMatch(/^\[/);
  });
});

describe('cleanLine: TeamCity service-message escapes', () => {
  const log = rawLines(new URL('../../fixtures/ci-formats/teamcity-mocha/log.txt', import.meta.url));
  const failed = log.find((l) => l.startsWith('##teamcity[testFailed'))!;

  it("decodes |' |[ |] || and shows |n as ⏎ in a real mocha-teamcity-reporter testFailed message", () => {
    const t = cleanLine(failed);
    expect(t).toContain("details='AssertionError [ERR_ASSERTION]: Expected values to be strictly equal: ⏎ + actual - expected");
    expect(t).toContain("+ 'caf-au-lait'");
    expect(t).toContain('at Context.<anonymous> (slug.test.cjs:9:12)');
    expect(t).not.toMatch(/\|[n'[\]|]/);
  });

  it('leaves suite and test names escaped (the TeamCity format parses them) and other lines alone', () => {
    for (const l of log.filter((x) => !/^##teamcity\[(?:testFailed|testStdErr|testStdOut|buildProblem|message) /.test(x))) expect(cleanLine(l)).toBe(l.trimEnd());
  });
});
