import type { LogLine } from '../types.js';

/** Lines sampled from the end of the log to tell a binary file from a log. */
const BINARY_SAMPLE_LINES = 2000;

/** Whether the end of a log is decoding garbage: many U+FFFD replacement characters (a binary file). */
export function looksBinary(lines: readonly LogLine[]): boolean {
  let bad = 0;
  let total = 0;
  for (const l of lines.slice(-BINARY_SAMPLE_LINES)) {
    total += l.text.length;
    for (let i = 0; i < l.text.length; i++) if (l.text.charCodeAt(i) === 0xfffd) bad++;
  }
  return total > 0 && bad / total > 0.05;
}
