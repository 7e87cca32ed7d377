import stripAnsi from 'strip-ansi';
import { MARKER_STRIP, mayHoldMarker } from './markers.js';

/** The ISO timestamp the Actions runner puts before every raw job-log line. */
const ACTIONS_TIMESTAMP = /^\uFEFF?\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?/;
// Control characters other than tab: NULs and friends come from binary garbage and must not reach output.
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/**
 * Cleans one raw log line to the text a person would read: no timestamp, no ANSI, only the last frame
 * of a `\r`-redrawn progress bar, no control characters, no trailing whitespace.
 */
export function cleanLine(raw: string): string {
  let s = raw;
  if (s.endsWith('\r')) s = s.slice(0, -1);
  s = s.replace(ACTIONS_TIMESTAMP, '');
  // Travis and GitLab fold / section / timer markers and their trailing `\r\x1b[0K` (see markers.ts).
  if (mayHoldMarker(s)) s = s.replace(MARKER_STRIP, '');
  if (s.includes('\r')) {
    // A progress bar redraws with \r: what stays on screen is the last non-empty frame.
    // A frame of nothing but colour codes or control bytes (`\r\x1b[K`, a bell) is blank on screen too.
    const frames = s.split('\r').filter((f) => stripAnsi(f).replace(CONTROL, '').trim() !== '');
    s = frames.length ? frames[frames.length - 1]! : '';
  }
  if (s.includes('\x1b') || s.includes('\x9b')) s = stripAnsi(s);
  s = s.replace(CONTROL, '');
  // A timestamp can hide behind a colour code; strip again once the colour is gone.
  s = s.replace(ACTIONS_TIMESTAMP, '');
  return s.trimEnd();
}

/** Cleans a whole small text (a fixture, a pasted snippet) into numbered lines. */
export function cleanText(text: string): { n: number; text: string }[] {
  const raw = text.split('\n');
  if (raw.length && raw[raw.length - 1] === '') raw.pop();
  return raw.map((r, i) => ({ n: i + 1, text: cleanLine(r) }));
}
