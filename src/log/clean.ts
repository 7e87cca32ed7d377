import stripAnsi from 'strip-ansi';
import { MARKER_STRIP, mayHoldMarker } from './markers.js';
import { repairCp437 } from './mojibake.js';

/** The ISO timestamp the Actions runner puts before every raw job-log line. */
const ACTIONS_TIMESTAMP = /^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
/**
 * `gh run view --log` (and `--log-failed`) prints every line of a run's jobs as `<job>\t<step>\t<runner's
 * line>`, the runner's line with its timestamp; a step's first line also carries the log file's BOM, often
 * decoded in a legacy code page by the shell that saved the output (`∩╗┐` cp437, `´╗┐` cp850, `ï»¿`
 * cp1252). The two names are the CLI's; the runner's line follows, and is read as in a raw job log. The
 * timestamp after the second tab is required, so a tool's own tab-separated output is left as it is.
 */
const GH_RUN_VIEW = /^[^\t]{1,200}\t[^\t]{1,200}\t(?:\uFEFF|∩╗┐|´╗┐|ï»¿)?(?=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)/;
/**
 * Jenkins' Timestamper plugin before each console line: `[2024-01-02T10:11:12.345Z] ` (pipeline
 * `timestamps`, the ISO form) and `23:26:05  ` (the clock form, two spaces). The clock form needs its
 * two spaces, so a tool's own `12:00:01 INFO …` line keeps its time. Package builders (the Open Build
 * Service) put the seconds since the build began, right-aligned in brackets: `[   22s] Failure -> …`.
 */
const JENKINS_TIMESTAMP = /^\[\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?Z?\] ?|^[0-2]\d:[0-5]\d:[0-5]\d(?:\.\d+)?  |^\[ *\d+s\](?: |$)/;
/** A TeamCity service message whose values are text for people: a failed test, a build problem, a message. */
const TEAMCITY_TEXT = /^##teamcity\[(?:testFailed|testStdErr|testStdOut|buildProblem|message|testIgnored) /;
/** TeamCity's escapes in service-message values: `|n` a newline, `|'` `||` `|[` `|]`, `|r`, `|0x` unicode. */
const TEAMCITY_ESCAPE = /\|(?:0x([0-9a-fA-F]{4})|(.))/g;
/**
 * The prefix `docker compose up` puts before every line a service prints: its name with the replica
 * number (`test_1`, compose v1; `test-1`, v2), padded, then `| `. The service's own text (and indent) follows.
 */
const COMPOSE_PREFIX = /^[a-z0-9][\w.-]*[_-]\d+ +\| ?/i;
/**
 * Jenkins' ConsoleNote: markup the console hides between `ESC[8m` (concealed) and `ESC[0m`, `ha:` then the
 * note serialised in base64 (a hyperlink, a `[Pipeline]` step's node id). The raw log file on the
 * controller and its `consoleFull` keep them before `[Pipeline] sh`, `Started by user …`, `Running on …`;
 * the console shows nothing there, so neither does the cleaned line.
 */
const CONSOLE_NOTE = /\x1b\[8mha:[^\x1b]*\x1b\[0m/g;
// Control characters other than tab: NULs and friends come from binary garbage and must not reach output.
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * Cleans one raw log line to the text a person would read: no timestamp, no ANSI, only the last frame
 * of a `\r`-redrawn progress bar, no control characters, no trailing whitespace.
 */
export function cleanLine(raw: string): string {
  // Most lines need only their timestamp cut: one scan for anything the steps below act on (~4x faster
  // than running them all; a huge log's 30,000-line tail window is cleaned line by line).
  // A line PowerShell's redirect garbled through cp437 (`ΓÇ║` for `›`) is read as the tool printed it (mojibake.ts).
  const plain = repairCp437(withoutGhRunView(raw)).replace(ACTIONS_TIMESTAMP, '');
  if (isPlain(plain)) return plain.trimEnd();
  // (The timestamp is anchored at the start, so cutting it before the trailing `\r` is the same.)
  let s = plain;
  if (s.endsWith('\r')) s = s.slice(0, -1);
  s = stripJenkinsTimestamp(s);
  if (s.includes('\x1b[8mha:')) s = s.replace(CONSOLE_NOTE, '');
  // Travis and GitLab fold / section / timer markers and their trailing `\r\x1b[0K` (see markers.ts).
  if (mayHoldMarker(s)) s = s.replace(MARKER_STRIP, '');
  if (s.includes('\r')) {
    // A progress bar redraws with \r: what stays on screen is the last non-empty frame.
    // A frame of nothing but colour codes or control bytes (`\r\x1b[K`, a bell) is blank on screen too.
    const frames = s.split('\r').filter((f) => stripAnsi(f).replace(CONTROL, '').trim() !== '');
    s = frames.length ? frames[frames.length - 1]! : '';
  }
  if (s.includes('\x1b') || s.includes('\x9b')) s = stripColours(s);
  s = s.replace(CONTROL, '');
  // docker compose's service prefix (`test_1  | `, `web-1  | `) before each line of a service's output.
  if (s.includes('|')) s = s.replace(COMPOSE_PREFIX, '');
  // A timestamp can hide behind a colour code; strip again once the colour is gone.
  s = stripJenkinsTimestamp(s.replace(ACTIONS_TIMESTAMP, ''));
  if (s.startsWith('##teamcity[') && TEAMCITY_TEXT.test(s)) s = decodeTeamcity(s);
  return s.trimEnd();
}

/**
 * The job's name of a `gh run view --log` line (see GH_RUN_VIEW), or undefined for any other line: the text
 * of a whole run holds its jobs one after the other, and once the prefix is cut only this tells them apart.
 */
export function ghRunViewJob(raw: string): string | undefined {
  const c0 = raw.charCodeAt(0);
  if ((c0 >= 48 && c0 <= 57) || c0 === 0xfeff) return undefined;
  const tab = raw.indexOf('\t');
  return tab > 0 && tab <= 200 && GH_RUN_VIEW.test(raw) ? raw.slice(0, tab) : undefined;
}

/** The runner's line of a `gh run view --log` line (see GH_RUN_VIEW); any other line as it is. */
function withoutGhRunView(raw: string): string {
  // A raw job-log line starts with its timestamp (a digit) or BOM: only a line with a tab early on can be one.
  const c0 = raw.charCodeAt(0);
  if ((c0 >= 48 && c0 <= 57) || c0 === 0xfeff) return raw;
  const tab = raw.indexOf('\t');
  return tab > 0 && tab <= 200 ? raw.replace(GH_RUN_VIEW, '') : raw;
}

/** Control bytes (\r, ESC, NUL, ...), CSI and `|`: a line holding none needs none of cleanLine's steps. */
const NEEDS_WORK = /[\x00-\x08\x0a-\x1f\x7f\x9b|]/;

/**
 * Whether cleanLine's steps would leave `s` (its timestamp already cut) as it is, but for trailing
 * whitespace: no control byte, colour or `|`, no marker, no Jenkins prefix (`[` first or `:` third), no
 * second runner timestamp, no TeamCity message.
 */
function isPlain(s: string): boolean {
  const c0 = s.charCodeAt(0);
  // A Jenkins prefix starts `[` and a digit (`[2024-…`) or a digit and `:` third (`23:26:05  `), a second
  // runner timestamp a digit and `-` fifth: a `[WARNING] …` or `[INFO] …` line (Maven prints one a test
  // class) is plain.
  const digit0 = c0 >= 48 && c0 <= 57;
  const jenkins = c0 === 91 /* [ */ ? isDigit(s.charCodeAt(1)) || s.charCodeAt(1) === 32 : digit0 && (s.charCodeAt(2) === 58 /* : */ || s.charCodeAt(4) === 45) /* - */;
  return !jenkins && c0 !== 0xfeff && !(c0 === 35 /* # */ && s.startsWith('##teamcity[')) && !NEEDS_WORK.test(s) && !mayHoldMarker(s);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** SGR colour codes (`\x1b[32m`, `\x1b[1;31m`, `\x1b[0m`): what most coloured CI output holds, and nothing else. */
const SGR = /\x1b\[[0-9;]*m/g;
/** What stripAnsi acts on besides ESC: the 8-bit introducers (CSI, OSC, DCS, SOS, PM, APC). */
const C1_INTRODUCER = /[\x90\x98\x9b\x9d-\x9f]/;

/**
 * stripAnsi, with a fast path for a line whose every escape is an SGR colour code: those are CSI
 * sequences stripAnsi removes whole, and no ANSI sequence spans an ESC, so cutting them alone gives its
 * result (a quarter of its cost on the coloured lines of a 30,000-line tail). Anything else goes to stripAnsi.
 */
function stripColours(s: string): string {
  const cut = s.replace(SGR, '');
  return cut.includes('\x1b') || C1_INTRODUCER.test(cut) ? stripAnsi(s) : cut;
}

/** The Timestamper prefix, if any (a cheap look at the first characters before the regex). */
function stripJenkinsTimestamp(s: string): string {
  return s.charCodeAt(0) === 91 /* [ */ || s.charCodeAt(2) === 58 /* : */ ? s.replace(JENKINS_TIMESTAMP, '') : s;
}

/**
 * A TeamCity service message as a person reads it: its escapes decoded, `|n` shown as ` ⏎ ` (a log line
 * stays one line, so the quoted message keeps its line number). Only messages carrying text are decoded;
 * block and suite names stay escaped for the TeamCity format's parser.
 */
function decodeTeamcity(s: string): string {
  return s.replace(TEAMCITY_ESCAPE, (_, hex: string | undefined, c: string | undefined) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : c === 'n' ? ' ⏎ ' : c === 'r' ? '' : (c ?? ''),
  );
}

/** Cleans a whole small text (a fixture, a pasted snippet) into numbered lines. */
export function cleanText(text: string): { n: number; text: string }[] {
  const raw = text.split('\n');
  if (raw.length && raw[raw.length - 1] === '') raw.pop();
  return raw.map((r, i) => ({ n: i + 1, text: cleanLine(r) }));
}
