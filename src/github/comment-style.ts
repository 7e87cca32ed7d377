/**
 * The config's `comment:` other than `review`, and pushes without a PR: no PR comment at all, only the
 * `Redline` check run. `annotations` keeps the pin as a check-run annotation at file:line (GitHub shows
 * it in the Files tab and on the commit); `none` says it in the check run's summary alone.
 */
import type { Config } from '../config.js';
import { fingerprintMarker } from '../report/fingerprint.js';
import type { Placement } from '../report/placement.js';
import { upsertCheckRun } from './check-run.js';
import type { GitHub } from './client.js';
import type { PublishInput, PublishResult } from './publish.js';

export type CommentStyle = Config['comment'];

/** The check run's placement for a style: an annotation when a pin is known (`annotations`), none otherwise. */
export function checkOnlyPlacement(p: Placement, style: Exclude<CommentStyle, 'review'>): Placement {
  if (style === 'none' || p.tier === 'comment') return { tier: 'comment' };
  return { tier: 'annotation', file: p.file, line: p.line };
}

/** Publishes a diagnosis in the `Redline` check run only (same external id as publish(): one per job). */
export async function publishCheckOnly(
  gh: GitHub,
  input: Omit<PublishInput, 'pr' | 'body' | 'isOurs'>,
  style: Exclude<CommentStyle, 'review'>,
): Promise<PublishResult> {
  const placement = checkOnlyPlacement(input.placement, style);
  const checkRunId = await upsertCheckRun(gh, input.ref, {
    headSha: input.headSha,
    externalId: input.fingerprint.family,
    title: input.title,
    summary: `${input.summary}\n\n${fingerprintMarker(input.fingerprint)}`,
    placement,
    message: input.message,
    ...(input.detailsUrl ? { detailsUrl: input.detailsUrl } : {}),
  });
  return { action: 'check-run-only', placement, checkRunId };
}
