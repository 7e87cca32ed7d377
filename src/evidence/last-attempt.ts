import type { LogLine } from '../types.js';
import { lineKey } from './templates.js';

/**
 * How far into the step its command is echoed: the runner's `##[group]Run …` (Actions), `$ …` (Travis,
 * GitLab), `+ …` (a shell's trace) is the step's first line, after at most a few of the runner's own.
 */
const ECHO_LOOKAHEAD = 5;
/** How far past the echo the command's output begins: the runner's preamble (the script, `shell:`, `env:` and its variables) in between. */
const OUTPUT_LOOKAHEAD = 60;
/** The step's command, as the runner or the shell echoes it. */
const COMMAND_ECHO = /^(?:##\[group\]Run |Run |\$ |\+ )(.+)$/;
const GROUP = /^##\[group\]|^::group::/;
const END_GROUP = /^##\[endgroup\]|^::endgroup::/;

/**
 * A step that retries its command (`pytest || pytest || pytest`, `npm ci || npm ci`) fails only when the
 * last attempt does: the attempts before it failed and were survived. The lines of the last attempt,
 * found by the first line of the command's output printed again at each attempt, or undefined when the
 * step is no retry chain (or its attempts cannot be told apart).
 */
export function lastAttempt(lines: readonly LogLine[]): readonly LogLine[] | undefined {
  let echo = -1;
  let attempts = 0;
  for (let i = 0; i < Math.min(lines.length, ECHO_LOOKAHEAD); i++) {
    const m = COMMAND_ECHO.exec(lines[i]!.text);
    if (!m) continue;
    const parts = m[1]!.split('||').map((p) => p.trim().replace(/\s+/g, ' '));
    if (parts.length >= 2 && parts.every((p) => p !== '' && p === parts[0])) {
      echo = i;
      attempts = parts.length;
    }
    break;
  }
  if (echo < 0) return undefined;
  // Actions folds the echoed script, `shell:` and `env:` into the group the echo opens: the output starts after it.
  let from = echo + 1;
  if (GROUP.test(lines[echo]!.text)) {
    const end = lines.findIndex((l, i) => i > echo && i <= echo + OUTPUT_LOOKAHEAD && END_GROUP.test(l.text));
    if (end < 0) return undefined;
    from = end + 1;
  }
  let first = -1;
  for (let i = from; i < Math.min(lines.length, from + OUTPUT_LOOKAHEAD); i++) {
    if (lines[i]!.text.trim() === '') continue;
    first = i;
    break;
  }
  if (first < 0) return undefined;
  const key = lineKey(lines[first]!.text);
  const starts: number[] = [];
  for (let i = first; i < lines.length; i++) if (lineKey(lines[i]!.text) === key) starts.push(i);
  // Each attempt prints it once; more often, it is a line the command repeats, not where it starts.
  if (starts.length < 2 || starts.length > attempts) return undefined;
  return lines.slice(starts[starts.length - 1]!);
}
