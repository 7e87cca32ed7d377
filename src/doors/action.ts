/**
 * The GitHub Action's logic (the `run()` of GitHub's actions/typescript-action convention, which
 * `@github/local-action` imports and calls); action-entry.ts is the entry the bundle starts from.
 * Thin by design (DESIGN.md §1): it reads the inputs, the environment and the event
 * (src/action-steps/context.ts), hands them to the shared pipeline (src/action-steps/run.ts: diagnose,
 * then the App's placement, fingerprints and sanitising), and never fails the build by itself: an
 * internal error is a warning and the step exits 0.
 */
import * as core from '@actions/core';
import { readContext } from '../action-steps/context.js';
import { runAction } from '../action-steps/run.js';
import { runnerOutput, setOutputs } from '../action-steps/runner-output.js';

/** Runs the Action once for this step's environment; resolves (never rejects) with exit code 0 set. */
export async function run(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const out = runnerOutput();
  try {
    const ctx = readContext(env);
    if (ctx.anthropicApiKey) core.setSecret(ctx.anthropicApiKey);
    await runAction(ctx, out);
  } catch (e) {
    out.warn(`Redline could not finish: ${(e as Error).message}`);
    try {
      setOutputs({ status: 'error' });
    } catch {
      // no GITHUB_OUTPUT: nothing more to say
    }
  }
  process.exitCode = 0;
}
