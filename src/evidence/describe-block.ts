import type { LogLine } from '../types.js';
import type { BlockKind } from './block.js';
import { PYTEST_TITLE } from './condense-block.js';
import { errorScore, isAssertionLine, isFrame, isLocationOnly, isSnippet, isSummaryHeader, isTestTitle } from './vocabulary.js';

/** A location a tool prints on a diagnostic's own line: `src/a.c:12:5:`, `Foo.cs(12,5):`, `a.py", line 3`. */
const LOCATED = /\S\.\w{1,10}(?::\d+|\(\d+(?:,\d+)?\)|", line \d+| line \d+)/;
/** What only the machine, the network or the runner says: a full disk, a killed process, a lost host. */
const INFRA = /No space left on device|\bENOSPC\b|\bOut of memory\b|OOMKilled|\bKilled\b|exceeded the maximum time limit|Could not resolve host|Temporary failure in name resolution|Name or service not known|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|Connection (?:timed out|reset by peer)|lost communication with the server|The operation was canceled|received a shutdown signal|\b50[234] (?:Bad Gateway|Service Unavailable|Gateway Time-?out)|toomanyrequests/;

/** Words of a comparison: a `-`/`+` list is a diff only when the block says it compares something. */
const ASSERT_WORDS = /assert|expect|Failed asserting|not ok|\bto (?:equal|be|eq)\b|\bbut was\b|\bgot\b|\bwant\b|\bactual\b|\breceived\b|\bdiffer|!=|==/i;

function blockText(lines: readonly LogLine[], start: number, end: number): string {
  let s = '';
  for (let i = start; i <= end && s.length < 4000; i++) s += lines[i]!.text + '\n';
  return s;
}

export interface BlockShape {
  kind: BlockKind;
  /** Added to the block's score: an assertion or a located diagnostic explains more than a bare error. */
  bonus: number;
  why: string[];
  /** The strongest error word of its lines (errorScore), 0..1. */
  strength: number;
}

/** What a block of lines is (trace, assertion, summary, diagnostic, infra, error) from its lines' shapes. */
export function describeBlock(lines: readonly LogLine[], start: number, end: number, header: number): BlockShape {
  let frames = 0;
  let assertions = 0;
  let snippets = 0;
  let locations = 0;
  let strength = 0;
  let infra = false;
  for (let i = start; i <= end; i++) {
    const t = lines[i]!.text;
    if (isFrame(t)) frames++;
    else if (isAssertionLine(t)) assertions++;
    else if (isSnippet(t)) snippets++;
    if (LOCATED.test(t) || isLocationOnly(t)) locations++;
    if (INFRA.test(t)) infra = true;
    strength = Math.max(strength, errorScore(t) * (i === header ? 1 : 0.9));
  }
  const head = lines[header]!.text;
  const why: string[] = [];
  let kind: BlockKind = 'error';
  let bonus = 0;
  const assertWords = isTestTitle(head) && assertions >= 2 ? true : ASSERT_WORDS.test(blockText(lines, start, end));
  // The list under a summary's banner (`=== short test summary info ===` then `FAILED tests/x.py::t`).
  // pytest's `=== FAILURES ===` / `=== ERRORS ===` banner over a test's `___ title ___` opens the failures'
  // details, not a summary of them: the block is what its lines are.
  const bannerOverTitle = header + 1 < lines.length && /^=+ .* =+$/.test(head) && PYTEST_TITLE.test(lines[header + 1]!.text);
  if ((!bannerOverTitle && isSummaryHeader(head)) || (start > 0 && !PYTEST_TITLE.test(head) && isSummaryHeader(lines[start - 1]!.text) && /^=+ .* =+$/.test(lines[start - 1]!.text))) {
    kind = 'summary';
    why.push('a failure summary');
  } else if (infra && !locations) {
    kind = 'infra';
    why.push('the machine or the network failed');
  } else if (assertions && assertWords) {
    kind = 'assertion';
    bonus += 0.2;
    why.push(`an assertion (${assertions} comparison line${assertions === 1 ? '' : 's'})`);
  } else if (frames >= 2) {
    kind = 'trace';
    bonus += 0.1;
    why.push(`a stack trace (${frames} frames)`);
  } else if (LOCATED.test(head) || (locations && snippets)) {
    kind = 'diagnostic';
    bonus += 0.15;
    why.push('a diagnostic at a location');
  }
  if (kind !== 'trace' && frames >= 2) why.push(`with ${frames} frames`);
  if (locations && kind !== 'diagnostic') bonus += 0.05;
  return { kind, bonus, why, strength };
}
