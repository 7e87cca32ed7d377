import { stepFailed, type CiFormatModule, type Step } from './step.js';

/**
 * The one rule every CI format shares: the failing step is a step that failed (non-zero exit, or marked
 * failed by the CI) and is not a post / cleanup step. A step that merely ran after it (an `echo`, an
 * `after_script`, a cache upload) is never chosen just for being last. When several failed, the format's
 * `failureOrder` says which ended the job.
 */
export function pickFailingStep(steps: readonly Step[], order: CiFormatModule['failureOrder']): Step | null {
  const failed = steps.filter((s) => s.kind !== 'post' && stepFailed(s));
  if (!failed.length) return null;
  return order === 'first' ? failed[0]! : failed[failed.length - 1]!;
}
