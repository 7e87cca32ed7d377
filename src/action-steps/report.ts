/**
 * Reports one diagnosis from the Action: the App's placement and fingerprint through `publish` when
 * the token may write to the PR; workflow-command annotations when it may not (fork PR, read-only
 * token: a 403 on the first write, after which no write is tried again); always the job summary.
 */
import { permalinkAt, sourceReader } from '../github/checkout-source.js';
import { anyBot, findOurComments } from '../github/comments.js';
import { type GitHub, statusOf } from '../github/client.js';
import { CHECK_TEXT_MAX } from '../github/check-run.js';
import { publish } from '../github/publish.js';
import { categoryLabel, pinText } from '../report/explain.js';
import { fingerprintOf, formatFingerprint } from '../report/fingerprint.js';
import { renderMarkdown } from '../report/markdown.js';
import { withHistoryTitle } from '../report/history-line.js';
import { place } from '../report/placement.js';
import { redactSecrets } from '../safety/redact.js';
import { redactedText, redactOutgoingLines } from '../safety/redact-outgoing.js';
import { inlineCode } from '../safety/sanitize.js';
import type { PrDiff } from '../repo/diff.js';
import type { Diagnosis } from '../types.js';
import type { ActionContext, CommentMode } from './context.js';
import { appendSummary, type RunnerOutput } from './runner-output.js';

export interface ReportTarget {
  ctx: ActionContext;
  gh: GitHub;
  out: RunnerOutput;
  mode: CommentMode;
  /** Set by the first refused write: from then on, annotations only. */
  state: { writeRefused: boolean };
  diff?: PrDiff;
}

/** Reports `d` for the job `jobName`; returns the URL of the PR comment when one was written or found. */
export async function reportDiagnosis(d: Diagnosis, job: { name: string; url?: string; artifactsUrl?: string }, t: ReportTarget): Promise<{ commentUrl?: string }> {
  const { ctx, out } = t;
  const sha = ctx.pr?.headSha ?? ctx.sha;
  const top = d.status === 'located' ? d.findings[0] : undefined;
  const title = withHistoryTitle(top ? `${categoryLabel(d.category)} at ${pinText(top)}` : `no location — ${categoryLabel(d.category)}`, d);
  const permalink = permalinkAt(ctx.repoUrl, sha);
  const common = { permalink, source: sourceReader(ctx.workspace), ...(job.url ? { logUrl: job.url } : {}), ...(job.artifactsUrl ? { artifactsUrl: job.artifactsUrl } : {}) };

  // The runner's log: the pin, then the evidence as inert text; through the one redactor first (the
  // runner output is sync and applies only the patterns).
  out.info(await redactedText(`Redline (${job.name}): ${title}`));
  out.echo('Evidence from the log:', await redactOutgoingLines(d.evidence.map((e) => e.text)));

  let commentUrl: string | undefined;
  let annotate = t.mode !== 'none';
  const pr = ctx.pr;
  if (t.mode === 'review' && pr && !pr.fromFork && !t.state.writeRefused && ctx.token) {
    const fp = fingerprintOf({ repo: `${ctx.ref.owner}/${ctx.ref.repo}`, job: job.name }, d);
    try {
      await publish(t.gh, {
        ref: ctx.ref, pr: pr.number, headSha: sha, fingerprint: fp, placement: place(d, t.diff), title,
        body: () => renderMarkdown(d, { ...common, fingerprint: formatFingerprint(fp) }),
        summary: renderMarkdown(d, { ...common, maxChars: CHECK_TEXT_MAX - 200 }),
        message: redactSecrets(top?.message ?? d.summary).text,
        ...(job.url ? { detailsUrl: job.url } : {}),
      });
      annotate = false;
      const mine = (await findOurComments(t.gh, ctx.ref, pr.number, anyBot)).find((c) => c.fp.family === fp.family);
      if (mine) commentUrl = `${ctx.repoUrl}/pull/${pr.number}#${mine.kind === 'review' ? 'discussion_r' : 'issuecomment-'}${mine.id}`;
    } catch (e) {
      if (statusOf(e) !== 403 && statusOf(e) !== 404) throw e;
      t.state.writeRefused = true;
      out.warn('Redline: the token may not write to this pull request (fork or read-only token); reporting with annotations and the job summary instead');
    }
  }
  if (annotate) for (const f of d.findings) if (!out.annotate(f.file, f.line, `Redline: ${categoryLabel(d.category)}`, await redactedText(f.message))) break;

  await appendSummary(`### Redline: ${inlineCode(job.name.slice(0, 200))}\n\n${renderMarkdown(d, common)}\n`);
  return commentUrl ? { commentUrl } : {};
}
