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

/**
 * The blocks without the restating annotations (see restatedAnnotations): a block that is nothing else is
 * dropped, one that starts or ends on them is cut to what lies inside, a condensed block loses those lines.
 */
export function withoutRestatedAnnotations(blocks: readonly Block[], lines: readonly LogLine[]): Block[] {
  const restated = restatedAnnotations(lines);
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
