/**
 * Every bound the reporters keep, each with why. (Kept here rather than in src/limits.ts only because
 * this folder was built in parallel with it; they can move there unchanged.)
 */

/** GitHub rejects an issue or PR comment body longer than this with 422 "body is too long". */
export const COMMENT_MAX_CHARS = 65_536;

/** Text reporter: more log lines than this stop being a pointer and become a log. */
export const TEXT_MAX_EVIDENCE_LINES = 20;
/** Text reporter: a log line longer than this is minified output or data, not something to read. */
export const TEXT_MAX_LINE_CHARS = 300;
/** Text and markdown: "up to 3 more findings": a ranked list longer than that is noise. */
export const MAX_OTHER_FINDINGS = 3;
/** Lines of source shown either side of the pinned line. */
export const DEFAULT_CONTEXT_LINES = 2;
/** A source excerpt wider than this would push the terminal or the comment sideways. */
export const SOURCE_MAX_LINE_CHARS = 300;
/** A pinned range longer than this is shown by its first lines only. */
export const SOURCE_MAX_LINES = 30;

/** Markdown: evidence lines in the comment before the fit-to-limit step even starts. */
export const MD_MAX_EVIDENCE_LINES = 50;
/** Markdown: a log line longer than this is cut (about a screen width of a wide diff view, times 4). */
export const MD_MAX_LINE_CHARS = 1000;
/** Markdown: a message or summary longer than this is a dump, not an explanation. */
export const MD_MAX_MESSAGE_CHARS = 2000;

/** SARIF: a message longer than this shows as a wall in code scanning; the first sentence is the title. */
export const SARIF_MAX_MESSAGE_CHARS = 2000;
/** SARIF: code scanning rejects more than 25,000 results per run; we never need more than a few. */
export const SARIF_MAX_RESULTS = 100;
