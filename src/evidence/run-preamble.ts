import type { LogLine } from '../types.js';
import type { Block } from './block.js';

/** The Actions runner's header of a `run:` step (`##[group]Run npm test`) and the group's end. */
const RUN_GROUP = /^##\[group\]Run /;
const END_GROUP = /^##\[endgroup\]/;

/**
 * The line numbers of the Actions runner's preamble of each `run:` step: the group it opens with
 * `##[group]Run …`, echoing the step's script, its `shell:` and the `env:` it sets, closed by
 * `##[endgroup]` before the script prints anything. A group that never closes (a log cut inside it) is
 * not one: what follows may be the step's output. Tools' own groups (`::group::Archive artifact`) do not
 * start with `Run ` and are not either.
 */
export function runPreamble(lines: readonly LogLine[]): Set<number> {
  const out = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (!RUN_GROUP.test(lines[i]!.text)) continue;
    let j = i + 1;
    while (j < lines.length && !END_GROUP.test(lines[j]!.text) && !RUN_GROUP.test(lines[j]!.text)) j++;
    if (j >= lines.length || !END_GROUP.test(lines[j]!.text)) continue;
    for (let k = i; k <= j; k++) out.add(lines[k]!.n);
    i = j;
  }
  return out;
}

/**
 * The preamble is what ran, never why it failed, however long the script (a 130-line `run:` block whose
 * `echo "ERROR: …"` and `exit 1` lines read as a failure and outscore the test binary's crash): blocks
 * inside it are dropped and a block reaching into it starts after it. The lines stay in what the finder
 * reads, so that a template's rarity is counted over the step as before.
 */
export function outsideRunPreamble(blocks: readonly Block[], lines: readonly LogLine[]): Block[] {
  const pre = runPreamble(lines);
  if (!pre.size) return [...blocks];
  const out: Block[] = [];
  for (const b of blocks) {
    let start = b.start;
    while (start <= b.end && pre.has(start)) start++;
    if (start > b.end) continue;
    // A block whose own lines (a condensed block's) all sit in the preamble says nothing either.
    const own = b.lines?.filter((n) => !pre.has(n));
    if (own && !own.length) continue;
    out.push(start === b.start && (!own || own.length === b.lines!.length) ? b : { ...b, start, header: Math.max(b.header, start), ...(own ? { lines: own } : {}) });
  }
  return out;
}
