import { FORMAT_DETECT_LINES } from '../../limits.js';
import type { CiFormatModule, FormatInput } from './step.js';
import { actions } from './actions.js';
import { actionsPage } from './actions-page.js';
import { azure } from './azure.js';
import { buildkite } from './buildkite.js';
import { circleci } from './circleci.js';
import { drone } from './drone.js';
import { gitlab } from './gitlab.js';
import { jenkins } from './jenkins.js';
import { plain } from './plain.js';
import { teamcity } from './teamcity.js';
import { travis } from './travis.js';

export type { CiFormat, CiFormatModule, FormatInput, Step, StepKind } from './step.js';
export { fetchesSources, stepFailed } from './step.js';
export { pickFailingStep } from './pick-failing-step.js';

/** Every CI format, most specific markers first (a tie goes to the earlier one); plain is the floor. */
export const FORMATS: readonly CiFormatModule[] = [gitlab, travis, azure, actions, jenkins, buildkite, teamcity, circleci, drone, actionsPage, plain];

/** LATER_CEILING[i]: the highest score any of FORMATS[i..] can give. */
const LATER_CEILING = FORMATS.map((_, i) => Math.max(...FORMATS.slice(i).map((f) => f.ceiling)));

/** The format whose detector is most confident about this log (read at both ends: FORMAT_DETECT_LINES). */
export function detectFormat(input: FormatInput): CiFormatModule {
  const { lines } = input;
  const sample = lines.length <= 2 * FORMAT_DETECT_LINES ? input : { ...input, lines: [...lines.slice(0, FORMAT_DETECT_LINES), ...lines.slice(-FORMAT_DETECT_LINES)] };
  let best = plain;
  let score = plain.detect(sample);
  for (let i = 0; i < FORMATS.length; i++) {
    // Each detector reads the whole sample; once none left could beat the best (ties go to the earlier), stop.
    if (score >= LATER_CEILING[i]!) break;
    const f = FORMATS[i]!;
    const s = f.detect(sample);
    if (s > score) {
      best = f;
      score = s;
    }
  }
  return best;
}
