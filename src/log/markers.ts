import type { SectionMarker } from './scan-log.js';

/**
 * Where a marker's name ends. Raw logs put `\r\x1b[0K` after each marker; copies that lost those bytes
 * (a pasted log, a search index) run the name into the next text: `travis_fold:end:worker_infotravis_fold:start:system_infoBuild …`,
 * `section_start:1506004954:prepare_scriptWaiting for pod …`. So a name also stops at the next marker, at `$`
 * (Travis prints the command right after), at `[` (GitLab's `[collapsed=true]`) and where lower case turns to
 * upper case (`system_info|Build`, `upload_artifacts|Job succeeded`).
 */
const NAME_END = String.raw`(?:(?=travis_(?:fold|time):|section_(?:start|end):|[\s\x1b$[]|$)|(?<=[a-z])(?=[A-Z]))`;
const GITLAB = String.raw`section_(start|end):\d+:([A-Za-z0-9_.-]+?)${NAME_END}`;
const TRAVIS_FOLD = String.raw`travis_fold:(start|end):([^\s\x1b$]+?)${NAME_END}`;
/** `travis_time:start:<id>` and `travis_time:end:<id>:start=…,finish=…,duration=…[,event=script]` around each command. */
const TRAVIS_TIME = String.raw`travis_time:(start|end):([0-9a-f]+)(?::start=\d+,finish=\d+,duration=\d+(?:,event=[a-z_]+)?)?`;

const MARKER = new RegExp(`${GITLAB}|${TRAVIS_FOLD}|${TRAVIS_TIME}`, 'g');
/** The Buildkite agent's per-line timestamp, an APC sequence: `\x1b_bk;t=<epoch ms>\x07` (not a section). */
const BUILDKITE_TIME = String.raw`\x1b?_bk;t=\d+\x07?`;
/** The markers with GitLab's options and the `\r\x1b[0K` that hides them on screen, for cleanLine. */
export const MARKER_STRIP = new RegExp(`(?:${GITLAB}(?:\\[[^\\]\\s]*\\])?|${TRAVIS_FOLD}|${TRAVIS_TIME})\\r?(?:\\x1b\\[0K)?|${BUILDKITE_TIME}`, 'g');

/** True when a raw line may hold a marker (cheap pre-check before the regex). */
export function mayHoldMarker(raw: string): boolean {
  return raw.includes('section_') || raw.includes('travis_') || raw.includes('_bk;t=');
}

/** Every GitLab section / Travis fold or timer marker on one raw line, in order. */
export function findMarkers(raw: string, n: number): SectionMarker[] {
  const out: SectionMarker[] = [];
  for (const m of raw.matchAll(MARKER)) {
    if (m[1]) out.push({ n, kind: m[1] as 'start' | 'end', name: m[2]!, ci: 'gitlab' });
    else if (m[3]) out.push({ n, kind: m[3] as 'start' | 'end', name: m[4]!, ci: 'travis' });
    else out.push({ n, kind: m[5] as 'start' | 'end', name: m[6]!, ci: 'travis', timer: true });
  }
  return out;
}
