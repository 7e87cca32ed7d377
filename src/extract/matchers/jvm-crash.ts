import type { LogLine, Signal } from '../../types.js';
import type { Matcher } from './matcher.js';

// HotSpot's banner when the JVM cannot go on: every line starts with `#`, a lone `#` spaces it.
const BANNER_LINE = /^#(?: |$)/;
// What the banner says went wrong: the machine's memory (the JVM could not even start, or grow), or a crash.
const OUT_OF_MEMORY = /^# There is insufficient memory for the Java Runtime Environment to continue\.?$/;
const FATAL = /^# A fatal error has been detected by the Java Runtime Environment:?$/;
// The VM's one-line warning printed just above the banner: `… VM warning: INFO: os::commit_memory(…) failed; error='Cannot allocate memory'`.
const VM_WARNING = /^(?:OpenJDK|Java HotSpot\(TM\)) (?:64-Bit )?(?:Server|Client) VM warning: /;
// Where the banner stops saying what happened and starts saying where its files went or whom to tell.
const BANNER_TAIL = /^# (?:An error report file|Core dump|If you would like to submit a bug report|The crash happened outside|See problematic frame|Can not save log file|Please check|Possible (?:reasons|solutions))/;
/** How many banner lines may sit above the verdict line (`#`, the VM warning's `#` spacer). */
const MAX_HEAD = 3;
/** How many banner lines a quote keeps: the verdict, the allocation or signal line, the JRE and frame lines. */
const MAX_BANNER = 16;

/**
 * Reads HotSpot's fatal banner (`# There is insufficient memory for the Java Runtime Environment to
 * continue.`, `# A fatal error has been detected …`) as one block: the VM's warning above it and the banner
 * down to where it names its report file. Only the first: a retried command prints the same banner again.
 */
export const jvmCrashMatcher: Matcher = {
  id: 'jvm-crash',
  extract(lines: readonly LogLine[]): Signal[] {
    for (let i = 0; i < lines.length; i++) {
      const t = lines[i]!.text;
      if (!t.startsWith('# ')) continue;
      const oom = OUT_OF_MEMORY.test(t);
      if (!oom && !FATAL.test(t)) continue;
      let start = i;
      for (let k = i - 1; k >= 0 && k >= i - MAX_HEAD; k--) {
        const above = lines[k]!.text;
        if (VM_WARNING.test(above)) {
          start = k;
          break;
        }
        if (!BANNER_LINE.test(above)) break;
        start = k;
      }
      let end = i;
      for (let k = i + 1; k < lines.length && k < i + MAX_BANNER; k++) {
        const below = lines[k]!.text;
        if (!BANNER_LINE.test(below) || BANNER_TAIL.test(below)) break;
        if (below.trim() !== '#') end = k;
      }
      const related: number[] = [];
      for (let k = start; k <= end; k++) if (k !== i) related.push(lines[k]!.n);
      const signal: Signal = {
        kind: 'diagnostic',
        message: t.replace(/^#\s*/, ''),
        tool: 'jvm-crash',
        severity: 'error',
        weight: 0.9,
        logLine: lines[i]!.n,
        related,
        blockEnd: lines[end]!.n,
      };
      if (oom) signal.category = 'infra';
      return [signal];
    }
    return [];
  },
};
