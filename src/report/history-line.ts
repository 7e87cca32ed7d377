/**
 * The one line every output gives the failure's history (issue 15): new, pre-existing, flaky or unknown,
 * and which run says so. Text for the terminal and the check run's title; markdown (links, code spans)
 * for the PR comment, the check run's summary and the Action's job summary.
 */
import type { Diagnosis, DiagnosisHistory, RunRef } from '../types.js';
import { inlineCode, safeUrl, sanitizeProse } from '../safety/sanitize.js';

const short = (sha: string): string => sha.slice(0, 7);
const runName = (r: RunRef): string => `run #${r.runNumber ?? r.runId}`;

/** `what` said in plain words, run names linked (markdown) or not (text). */
function line(h: DiagnosisHistory, md: boolean): string {
  const code = (s: string) => (md ? inlineCode(s.slice(0, 100)) : s.slice(0, 100));
  const run = (r: RunRef) => {
    const url = md ? safeUrl(r.url) : undefined;
    return url ? `[${runName(r)}](${url})` : runName(r);
  };
  const range = h.blamedRange;
  const rangeUrl = range && md ? safeUrl(range.url) : undefined;
  const rangeText = range ? code(`${short(range.base)}...${short(range.head)}`) : '';
  const rangeNote = range
    ? `; ${range.why === 'push' ? 'blamed' : 'the PR\'s diff does not reach the failure, so blamed'} the ${range.commits} commit${range.commits === 1 ? '' : 's'} since the last green run (${rangeUrl ? `[${rangeText}](${rangeUrl})` : rangeText}, ${range.files} file${range.files === 1 ? '' : 's'})${range.truncated ? ` — ${range.truncated}` : ''}`
    : '';
  const diffNote = h.passingLog ? `; ${h.newLines ?? 0} line${h.newLines === 1 ? '' : 's'} of the failing step are new against the passing log` : '';
  switch (h.status) {
    case 'pre-existing': {
      const s = h.since!;
      return `pre-existing: also failing on ${code(s.branch ?? 'the base branch')} since ${code(short(s.sha))}, ${run(s)} — not caused by this change, so the diff is not blamed`;
    }
    case 'flaky': {
      const [a, b] = h.disagreeing ?? [];
      const which = h.since?.branch && a && b
        ? `failed on ${code(h.since.branch)} in ${run(a)} and passed in ${run(b)}`
        : a ? `the same job passed${a.attempt ? ` on attempt ${a.attempt}` : ''} of ${run(a)} at this same commit` : 'the same job has passed and failed on the same code';
      return `flaky: ${which} — re-run the job; the diff is not blamed`;
    }
    case 'new':
      return `new: ${h.lastGreen ? `the job passed in its last green ${run(h.lastGreen)} at ${code(short(h.lastGreen.sha))}` : 'compared with a passing log of the job'}${diffNote}${rangeNote}`;
    default:
      return `history unknown${h.note ? ` (${h.note.slice(0, 300)})` : ''}`;
  }
}

/** One plain line (terminal, check run title material). */
export function historyText(h: DiagnosisHistory): string {
  const s = line(h, false);
  return h.note && h.status !== 'unknown' ? `${s} (${h.note.slice(0, 300)})` : s;
}

/** One markdown line (comment, check run summary, job summary), sanitised. */
export function historyMarkdown(h: DiagnosisHistory): string {
  const s = line(h, true);
  const note = h.note && h.status !== 'unknown' ? ` _(${sanitizeProse(h.note.slice(0, 300))})_` : '';
  return `**History:** ${s}${note}`;
}

/** A check run's (or the runner log's) title with pre-existing or flaky said first: those are not the PR's to fix. */
export function withHistoryTitle(title: string, d: Pick<Diagnosis, 'history'>): string {
  const s = d.history?.status;
  return s === 'pre-existing' || s === 'flaky' ? `${s}: ${title}` : title;
}
