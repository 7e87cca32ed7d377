import type { LogLine } from '../types.js';
import type { Block } from './block.js';
import { PLACE_REPORT } from './vocabulary.js';
import { leadingLocation } from './read-locations.js';

/**
 * A build tool names the plugin goal or task that failed (Maven's `Failed to execute goal
 * org.apache.maven.plugins:maven-checkstyle-plugin:2.15:checkstyle (default) on project adapter-rxjava`,
 * Gradle's `Execution failed for task ':app:checkstyleMain'`) after a checker printed its findings in that
 * goal's own section with no level at all (`/x/A.java:41: Line is longer than 100 characters`). Those
 * findings are why the goal failed: the section is read back for the place reports it holds.
 */

const MAVEN_FAILED_GOAL = /Failed to execute goal (?:[\w.-]+:)?([\w.-]+):[\w.-]+:([\w.-]+) \(([^)]*)\) on project ([\w.-]+)/;
const GRADLE_FAILED_TASK = /Execution failed for task '([\w:.-]+)'/;
/** Maven's section header for one goal: `[INFO] --- maven-checkstyle-plugin:2.15:checkstyle (default) @ adapter-rxjava ---`. */
const MAVEN_SECTION = /^\[INFO\] --- ([\w.-]+):[\w.-]+:([\w.-]+) \(([^)]*)\) @ ([\w.-]+) ---/;
const ANY_MAVEN_SECTION = /^\[INFO\] (?:--- |-{20,}|Reactor Summary)/;
/** Gradle's task header: `> Task :app:checkstyleMain` (with or without its outcome). */
const GRADLE_TASK = /^> Task (:[\w:.-]+)/;
/** The header printed with the task's failed outcome, after its output. */
const GRADLE_TASK_OUTCOME = /^> Task :[\w:.-]+ FAILED\s*$/;
/** A checker's or compiler's report of a place (`/x/A.java:41: …`, `e: file:///…/A.kt:3:5 …`). */
const isReport = (t: string): boolean => t.length < 2000 && (PLACE_REPORT.test(t) || !!leadingLocation(t));
/** Findings quoted as one block: a checker's first reports say what the rest do. */
const MAX_REPORTS = 8;
/** Scored as a failure stated once near the step's end (find-blocks' seed: strength, rarity, position). */
const SCORE = 0.95;

export function failedGoalReports(lines: readonly LogLine[]): Block | undefined {
  let failed: ((t: string) => boolean) | undefined;
  for (let i = lines.length - 1; i >= 0 && !failed; i--) {
    const t = lines[i]!.text;
    const m = MAVEN_FAILED_GOAL.exec(t);
    if (m) {
      const [, artifact, goal, exec, project] = m;
      failed = (h) => {
        const s = MAVEN_SECTION.exec(h);
        return !!s && s[1] === artifact && s[2] === goal && s[3] === exec && s[4] === project;
      };
      continue;
    }
    const g = GRADLE_FAILED_TASK.exec(t);
    if (g) failed = (h) => GRADLE_TASK.exec(h)?.[1] === g[1];
  }
  if (!failed) return undefined;
  const start = lines.findIndex((l) => failed!(l.text));
  if (start < 0) return undefined;
  const reports: number[] = [];
  // Gradle prints a task's header with its outcome (`> Task :app:compileDebugKotlin FAILED`) once the task
  // has failed, after the reports its worker already printed: the run of reports right above it is its own.
  if (GRADLE_TASK_OUTCOME.test(lines[start]!.text)) {
    for (let i = start - 1; i >= 0 && start - i <= MAX_REPORTS && isReport(lines[i]!.text); i--) reports.unshift(i);
  }
  const above = reports.length;
  for (let i = start + 1; i < lines.length && reports.length - above < MAX_REPORTS; i++) {
    const t = lines[i]!.text;
    if (ANY_MAVEN_SECTION.test(t) || GRADLE_TASK.test(t)) break;
    if (isReport(t)) reports.push(i);
  }
  if (!reports.length) return undefined;
  const first = reports[0]!;
  const last = reports[reports.length - 1]!;
  return {
    start: lines[first]!.n, end: lines[last]!.n, header: lines[first]!.n, kind: 'diagnostic', score: SCORE,
    why: [`${reports.length} report(s) of a place in the section of the goal that failed`], source: 'generic',
  };
}
