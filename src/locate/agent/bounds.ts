/**
 * The LLM loop's own bounds (the shared tool bounds live in src/limits.ts). Each says why.
 */

/** Output tokens per model turn: a tool call or a report is a few hundred tokens; a long essay is not wanted. */
export const AGENT_MAX_OUTPUT_TOKENS = 1024;
/** One tool result sent to the model, in bytes (~3k tokens): a 50 KB read would eat a diagnosis's budget in two turns. */
export const AGENT_TOOL_RESULT_BYTES = 12 * 1024;
/** read without a limit returns this many lines, not READ_MAX_LINES: the model should read around a line, not whole files. */
export const AGENT_READ_DEFAULT_LINES = 200;
/** One evidence or hunk line in the first message, in characters (a 16 KB minified line says nothing more). */
export const AGENT_LINE_CHARS = 400;
/** Source lines shown around each deterministic finding (before, after). */
export const AGENT_SNIPPET_BEFORE = 4;
export const AGENT_SNIPPET_AFTER = 4;
/** Changed lines shown per hunk of the PR, and hunks shown at most. */
export const AGENT_HUNK_LINES = 12;
export const AGENT_MAX_HUNKS = 24;
/** The repo map gets at most this many tokens of the first turn (a table of contents, not the code). */
export const AGENT_MAP_TOKENS = 1_500;
/** cl100k is a stand-in for Claude's tokenizer: this share of every budget is kept back as a margin. */
export const TOKEN_MARGIN = 0.1;
/** symbols: definitions and reference sites listed at most. */
export const SYMBOLS_MAX_DEFS = 20;
export const SYMBOLS_MAX_REFS = 40;
/** SDK request timeout: a turn that hangs a minute is a stuck connection, not a slow model. */
export const API_TIMEOUT_MS = 60_000;
/** SDK retries (429, 529, 5xx, connection errors), honouring retry-after; after that, deterministic. */
export const API_MAX_RETRIES = 2;
/**
 * A deterministic top finding at or above this confidence (a compiler's own location, a changed line
 * linked to the failure) is never displaced by a model's different pin, which is listed second: a
 * verified line is not necessarily the cause, and the model must not make a good answer worse.
 */
export const STRONG_PIN = 0.6;
