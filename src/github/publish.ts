import { fingerprintMarker, type Fingerprint } from '../report/fingerprint.js';
import type { Placement } from '../report/placement.js';
import { redactedText, redactingGitHub } from '../safety/redact-outgoing.js';
import type { RepoRef, GitHub } from './client.js';
import { upsertCheckRun } from './check-run.js';
import { anyBot, editComment, findOurComments, postComment, sitsAt, type IsOurs } from './comments.js';

export interface PublishInput {
  ref: RepoRef;
  pr: number;
  headSha: string;
  fingerprint: Fingerprint;
  /** Where the comment should go (validated against the hunks already). */
  placement: Placement;
  /** The comment body for a placement; must carry the fingerprint marker (renderMarkdown's `fingerprint`). */
  body: (p: Placement) => string;
  /** The check run's title and summary, and the annotation message for tier 3. */
  title: string;
  summary: string;
  message: string;
  detailsUrl?: string;
  isOurs?: IsOurs;
}

/** `check-run-only`: the config's `comment: annotations | none`, or a push without a PR (comment-style.ts). */
export type PublishAction = 'created' | 'updated' | 'unchanged' | 'said-elsewhere' | 'check-run-only';

export interface PublishResult {
  action: PublishAction;
  /** The tier the comment ended at (lower than asked when GitHub refused an anchor). */
  placement: Placement;
  checkRunId: number;
}

/** What an outdated comment becomes when the pin moved to a new place: kept (people may have replied), marked. */
function supersededBody(): string {
  return '<!-- redline:superseded -->\n_Redline: this failure changed; see the newer Redline comment on this pull request._\n';
}

/**
 * Posts one voice per failure (DESIGN.md §7.5: find → skip / update / create). Redline's comment for
 * this job (same fingerprint family) is edited when it sits where the new one would go, left alone
 * when the body is the same, and otherwise marked superseded with a new comment posted; a failure
 * another job already reported (same failure part) is not said twice. Then the `Redline` check run.
 */
export async function publish(gh: GitHub, input: PublishInput): Promise<PublishResult> {
  const { ref, pr, headSha, fingerprint: fp } = input;
  // Every write below sends redacted bodies (one client for all of them: comments, edits, check run).
  gh = redactingGitHub(gh);
  const mine = await findOurComments(gh, ref, pr, input.isOurs ?? anyBot);
  const sameJob = mine.find((c) => c.fp.family === fp.family);
  const sameFailure = mine.find((c) => c.fp.failure === fp.failure);
  let placement = input.placement;
  let action: PublishAction;

  if (sameJob && sitsAt(sameJob, placement)) {
    const body = input.body(placement);
    // GitHub holds the redacted body: compare with what we would send.
    if (sameJob.body.trim() === (await redactedText(body)).trim()) action = 'unchanged';
    else {
      await editComment(gh, ref, sameJob, body);
      action = 'updated';
    }
  } else if (!sameJob && sameFailure) {
    action = 'said-elsewhere';
  } else {
    const posted = await postComment(gh, ref, pr, headSha, placement, input.body);
    placement = posted.placement;
    action = 'created';
    if (sameJob) await editComment(gh, ref, sameJob, supersededBody());
  }

  const checkRunId = await upsertCheckRun(gh, ref, {
    headSha,
    externalId: fp.family,
    title: input.title,
    summary: `${input.summary}\n\n${fingerprintMarker(fp)}`,
    placement,
    message: input.message,
    ...(input.detailsUrl ? { detailsUrl: input.detailsUrl } : {}),
  });
  return { action, placement, checkRunId };
}
