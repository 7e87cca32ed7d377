import type { LogLine } from '../types.js';

/** Jenkins' shell step as it echoes it: `[ws] $ /bin/sh -xe /tmp/jenkins….sh` (trace every command, stop at the first that fails). */
const TRACED_ERREXIT_SHELL = /\$ \S*\/?(?:ba|da)?sh -(?=[a-z]*x)(?=[a-z]*e)[a-z]+ /;
/** How far into the step the shell's own echo comes, after the runner's lines. */
const SHELL_LOOKAHEAD = 5;
/** A command of the script itself, as `-x` traces it (a command substitution's is `++ …`). */
const TOP_LEVEL_TRACE = /^\+ \S/;

/**
 * A shell step run with `-e` and `-x` stops at the first command that fails, and traces each command
 * before it runs: every command traced before the last one ran to its end and succeeded, so what it
 * printed (a configure check's `No package 'glib' found`, a warning) was survived. The lines from the last
 * traced command on, or undefined when the step is no such shell (or traces fewer than two commands).
 */
export function lastTracedCommand(lines: readonly LogLine[]): readonly LogLine[] | undefined {
  const shell = lines.slice(0, SHELL_LOOKAHEAD).findIndex((l) => TRACED_ERREXIT_SHELL.test(l.text));
  if (shell < 0) return undefined;
  let last = -1;
  let traced = 0;
  for (let i = shell + 1; i < lines.length; i++) {
    if (!TOP_LEVEL_TRACE.test(lines[i]!.text)) continue;
    last = i;
    traced++;
  }
  if (traced < 2) return undefined;
  return lines.slice(last);
}
