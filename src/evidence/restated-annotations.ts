import type { LogLine } from '../types.js';
import type { Block } from './block.js';
import { RESTATED_ANNOTATION_LOOKBACK, RESTATED_ANNOTATION_MAX } from '../limits.js';

/** An Actions error annotation: the runner's `##[error]…` line (a `::error::` a step wrote, read back). */
const ANNOTATION = /^##\[error\]\s*(.*)$/;
/** An annotation this short (`##[error]Error`) says too little to be matched against what came before. */
const MIN_MESSAGE_CHARS = 10;
/** The runner's own lines (`##[group]`, `##[error]`, `##[warning]`): never what an action printed itself. */
const RUNNER_LINE = /^##\[/;

/**
 * The line numbers of `##[error]` annotations that repeat a line the step printed above them: an action
 * that logs its failure and then hands the same message to `core.setFailed` (action-gh-release's `❌ Too
 * many retries. Aborting...` then `##[error]Too many retries.`; build-push-action's `##[error]buildx failed
 * with: ERROR: failed to build: …` over BuildKit's own line; vitest's `##[error]Error: Test timed out in
 * 30000ms.` under the failure that printed it). The annotation restates; the printed line and what led to
 * it are the report. A problem matcher's annotation is the tool's line itself, printed once, and an
 * annotation repeating an earlier annotation (ESLint's same rule broken in two files) is a report of its own:
 * only lines the step printed without the runner's prefix are compared.
 */
export function restatedAnnotations(lines: readonly LogLine[]): Set<number> {
  const out = new Set<number>();
  // From the end, where an action's closing annotation sits, and only so many: a step that printed thousands
  // of annotated lines (a linter through a problem matcher) costs the same as one that printed a few.
  let examined = 0;
  for (let i = lines.length - 1; i >= 0 && examined < RESTATED_ANNOTATION_MAX; i--) {
    if (lines[i]!.text.charCodeAt(0) !== 35 /* # */) continue;
    const m = ANNOTATION.exec(lines[i]!.text);
    const msg = m?.[1]?.trim();
    if (!msg || msg.length < MIN_MESSAGE_CHARS) continue;
    examined++;
    for (let k = i - 1; k >= 0 && k >= i - RESTATED_ANNOTATION_LOOKBACK; k--) {
      const prior = lines[k]!.text.trim();
      if (prior.length < MIN_MESSAGE_CHARS || RUNNER_LINE.test(prior)) continue;
      if (prior.includes(msg) || msg.includes(prior)) {
        out.add(lines[i]!.n);
        break;
      }
    }
  }
  return out;
}

/** BuildKit's recap of a failed instruction: `------`, then ` > [stage n/m] RUN …:`, its last output lines. */
const RECAP_RULE = /^-{6}$/;
const RECAP_HEAD = /^ > \[[^\]]+\] .*:$/;
/** A recap line: the seconds since the instruction began, then what it printed (`11.02 /app/x.cs(42,20): error …`). */
const RECAP_LINE = /^\d+\.\d+ (.+)$/;
/** The same line as the instruction's progress printed it: `#19 11.02 /app/x.cs(42,20): error …`. */
const PROGRESS_LINE = /^#\d+ \d+\.\d+ (.+)$/;

/**
 * The line numbers of BuildKit's recap lines that repeat what the failed instruction printed above: after
 * `#19 ERROR: process … did not complete successfully`, BuildKit prints the instruction's last output lines
 * again between `------` rules (` > [build 12/12] RUN dotnet publish …:`, then `11.02 … error CS0023: …`).
 * The first print is the report; the recap restates it (and leaves the progress prefix that located it).
 */
export function buildkitRecap(lines: readonly LogLine[]): Set<number> {
  const out = new Set<number>();
  let printed: Set<string> | undefined;
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!RECAP_RULE.test(lines[i]!.text) || !RECAP_HEAD.test(lines[i + 1]!.text)) continue;
    // The progress lines as printed or with their prefix already cut (evidence/step-prefix.ts).
    printed ??= new Set(lines.slice(0, i).map((l) => (PROGRESS_LINE.exec(l.text)?.[1] ?? l.text).trim()));
    for (let k = i + 2; k < lines.length && !RECAP_RULE.test(lines[k]!.text); k++) {
      const own = RECAP_LINE.exec(lines[k]!.text)?.[1]?.trim();
      if (own && printed.has(own)) out.add(lines[k]!.n);
    }
  }
  return out;
}

/** A line a Maven plugin relayed from a build it ran, under its own tag: `[ERROR] [ERROR] Failed to execute goal …`. */
const RELAYED = /^\[ERROR\] (\[(?:INFO|WARNING|ERROR)\].*)$/;
/** A relayed blank line: the nested build's `[ERROR]` alone. */
const RELAYED_BLANK = /^\[(?:INFO|WARNING|ERROR)\]\s*$/;
/** How many of Maven's own tagged lines, printed again under `[ERROR] `, show a relayed build. */
const RELAYED_MIN = 3;

/**
 * The line numbers of a nested Maven build's output that a plugin relayed inside its own error after the
 * build had printed it: gitflow-maven-plugin's `release-finish` runs `mvn` and, when that fails, throws with the
 * whole output, which Maven prints again line by line under `[ERROR] ` (`[ERROR] [ERROR] Failed to execute goal
 * … unpack …`). The first print is the report; the relayed copy restates it. A relayed line printed nowhere
 * before (an invoker whose nested log is shown only in the error) is kept.
 */
export function relayedMavenOutput(lines: readonly LogLine[]): Set<number> {
  const out = new Set<number>();
  let first = -1;
  let copied = 0;
  let printed: Set<string> | undefined;
  for (let i = 0; i < lines.length; i++) {
    const t = lines[i]!.text;
    if (t.charCodeAt(0) !== 91 /* [ */ || t.charCodeAt(8) !== 91) continue;
    const m = RELAYED.exec(t);
    if (!m) continue;
    printed ??= new Set(lines.slice(0, i).map((l) => l.text.trim()));
    if (printed.has(m[1]!.trim())) {
      if (first < 0) first = i;
      copied++;
    }
  }
  // A relayed build shows as several of Maven's own tagged lines printed again; one such line is a coincidence.
  if (copied < RELAYED_MIN || !printed) return out;
  // From the first relayed line on, every `[ERROR] x` whose x was printed before the relay is the copy: the
  // nested build's untagged lines too (a test's own `ERROR [date] - java.lang.NullPointerException`).
  for (let i = first; i < lines.length; i++) {
    const t = lines[i]!.text;
    if (!t.startsWith('[ERROR] ')) continue;
    const own = t.slice(8).trim();
    if (printed.has(own) || RELAYED_BLANK.test(own)) out.add(lines[i]!.n);
  }
  return out;
}

/**
 * The blocks without the restating annotations (see restatedAnnotations) and BuildKit's recap lines (see
 * buildkitRecap): a block that is nothing else is
 * dropped, one that starts or ends on them is cut to what lies inside, a condensed block loses those lines.
 */
export function withoutRestatedAnnotations(blocks: readonly Block[], lines: readonly LogLine[]): Block[] {
  const restated = restatedAnnotations(lines);
  for (const n of buildkitRecap(lines)) restated.add(n);
  for (const n of relayedMavenOutput(lines)) restated.add(n);
  if (!restated.size) return [...blocks];
  const out: Block[] = [];
  for (const b of blocks) {
    let { start, end } = b;
    while (start <= end && restated.has(start)) start++;
    while (end >= start && restated.has(end)) end--;
    if (start > end) continue;
    const own = b.lines?.filter((n) => !restated.has(n));
    if (own && !own.length) continue;
    if (start === b.start && end === b.end && (!own || own.length === b.lines!.length)) {
      out.push(b);
      continue;
    }
    out.push({ ...b, start, end, header: Math.min(Math.max(b.header, start), end), ...(own ? { lines: own } : {}) });
  }
  return out;
}
