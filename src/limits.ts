/**
 * Every bound Redline keeps, in one place, each with why. Change a number here, never inline.
 */

// ── Bounded tools (DESIGN.md §4; shared by the heuristics and the LLM mode) ──
/** grep: more than this many matches is noise for a person and a waste of tokens for a model. */
export const GREP_MAX_MATCHES = 100;
/** Any single output line longer than this is cut: minified bundles and data lines are not evidence. */
export const MAX_LINE_CHARS = 2000;
/** glob: a list longer than this should be narrowed with a better pattern. */
export const GLOB_MAX_PATHS = 100;
/** read: at most this many lines per call... */
export const READ_MAX_LINES = 2000;
/** ...and at most this many bytes, whichever comes first (about 12k tokens). */
export const READ_MAX_BYTES = 50 * 1024;
/** A ripgrep call that runs longer than this on a checkout is killed (a pathological repo or pattern). */
export const RG_TIMEOUT_MS = 20_000;
/** ripgrep output we are willing to buffer from one call before stopping it. */
export const RG_MAX_OUTPUT_BYTES = 8 * 1024 * 1024;

// ── Reading logs (a 1 GB log must be diagnosed with peak RSS under 300 MB) ──
/** Logs up to this size are kept whole: every line is cleaned and every matcher sees everything. */
export const FULL_KEEP_BYTES = 48 * 1024 * 1024;
/**
 * ...and up to this many lines: each kept line costs ~200 bytes through the pipeline (its object, its
 * cleaned text, the matchers' views), so 48 MB of 11-byte lines (4.4 M) would be ~1 GB. Real logs under
 * FULL_KEEP_BYTES hold ~600,000 lines at most (80 bytes a line); past this a log is read as a big one.
 */
export const FULL_KEEP_LINES = 600_000;
/** Read size: big enough that per-chunk work is amortised, small enough to bound memory. */
export const READ_CHUNK_BYTES = 4 * 1024 * 1024;
/** stdin is read from its file descriptor in chunks this big (a pipe gives ≤64 KB a read): fewer, bigger Buffers than process.stdin's 64 KB ones, small enough to stay in the CPU cache for the scanner's needle passes. */
export const STDIN_CHUNK_BYTES = 256 * 1024;
/** A single line longer than this is cut (minified JS, base64 blobs): the rest is not evidence. */
export const MAX_LOG_LINE_BYTES = 16 * 1024;
/** Huge logs: the first lines (runner preamble, step list) are kept... */
export const HEAD_LINES = 2000;
/** ...and the raw bytes at the end, where failures are reported... */
export const TAIL_BYTES = 8 * 1024 * 1024;
/** ...but never more than this many of the last lines. */
export const TAIL_LINES = 30_000;
/** Huge logs: lines around each error-looking line in the middle: before... */
export const HIT_CONTEXT_BEFORE = 5;
/** ...and after (a stack trace or an assertion diff follows its headline). */
export const HIT_CONTEXT_AFTER = 40;
/** Huge logs: at most this many middle lines are kept (hits and context), whatever the log says. */
export const MAX_MIDDLE_LINES = 40_000;
/** ...and at most this many bytes of their cleaned text (lines of up to MAX_LOG_LINE_BYTES add up fast). */
export const MAX_MIDDLE_BYTES = 16 * 1024 * 1024;
/** Middle hits kept for the rarity of their line template: a million passing lines saying "error" share a few. */
export const MIDDLE_RARE_HITS = 300;
/** Middle hits kept from the start of the current step and of the last step with a runner error (the failing step's headline). */
export const MIDDLE_STEP_HITS = 200;
/** Middle hits kept nearest the end, just before the tail window (the failure's lead-up). */
export const MIDDLE_RECENT_HITS = 300;
/** Raw bytes before the tail window searched for those nearest hits. */
export const MIDDLE_RECENT_BYTES = 8 * 1024 * 1024;
/** Step and error markers kept from the middle (`##[group]Run`, `##[error]`): a job has tens of steps, not thousands. */
export const MIDDLE_MARKER_HITS = 2_000;
/** Context bytes read around one middle hit: 5 lines before, 40 after at ordinary widths, not 45 minified lines. */
export const MIDDLE_WINDOW_BYTES = 32 * 1024;
/** Middle hits templated per MB of log at most; past it one in k (k from the density): bounded time on a log saying "error" on every line. */
export const MIDDLE_KEYED_HITS_PER_MB = 2_000;
/**
 * Middle hits ripgrep prints and the bounded middle sees one by one; past them (a log saying "error" on
 * every line) the rest of the middle is sampled (sample-dense-middle.ts): printing 10 M lines costs
 * ripgrep ~6 s, and each hit ~1.5 µs here (parsed, keyed, offered). 25,000 (was 100,000): the 75,000
 * more cost ~0.1 s of CPU on a dense log; past the exact hits the windows, every marker, every line with
 * a needle rare among them and each step's first hits are still offered.
 */
export const MIDDLE_EXACT_HITS = 25_000;
/** Past MIDDLE_EXACT_HITS: one sample window every this many bytes of the middle... */
export const MIDDLE_SAMPLE_EVERY = 1024 * 1024;
/** ...of this many bytes, every hit in it templated (1/32 of a dense middle, ~330 hits per MB of passing-test lines; each window costs a search per common needle). */
export const MIDDLE_SAMPLE_WINDOW = 32 * 1024;
/** Bytes after a step marker searched for that step's first hits in a sampled middle (a step's headline comes early). */
export const MIDDLE_STEP_SCAN_BYTES = 1024 * 1024;
/** Bytes of the targeted lines (markers, rare needles) of a sampled middle kept as ripgrep printed them; past it they are read at their offsets (memory, whatever a rare needle turns into later). */
export const MIDDLE_TARGETED_TEXT_BYTES = 16 * 1024 * 1024;
/**
 * Targeted lines of a sampled middle ripgrep may print: a log whose every line is a marker (20 M
 * `##[error]` lines) made the list 18 M entries, 2 GB and a minute. Markers and rare needles past this
 * many are not rare: ripgrep is stopped there and the windows sample the rest like any dense stretch.
 */
export const MIDDLE_TARGETED_LINES = 100_000;
/** A needle on fewer than this share of the exact hits is "rare": every line holding it is searched for past them. */
export const MIDDLE_RARE_NEEDLE_SHARE = 0.01;
/** The sampled middle numbers its lines by reading the stretch in blocks this big (they stay in the CPU cache: ~0.4 s of CPU per GB of short lines). */
export const LINE_COUNT_BLOCK_BYTES = 64 * 1024;
/** ...and remembers the line number every this many bytes of it (8 bytes each: 8 KB per GB), so a line is numbered from the nearest mark. */
export const LINE_INDEX_BLOCK_BYTES = 1024 * 1024;
/** A sampled stream hands its lines to ripgrep (targeted-tap.ts); at most this many bytes wait for ripgrep's answer (memory)... */
export const STREAM_TAP_PENDING_BYTES = 16 * 1024 * 1024;
/** ...and a line longer than this ends the sampling (ripgrep buffers whole lines; the scanner cuts them). */
export const STREAM_TAP_MAX_LINE_BYTES = 1024 * 1024;
/** A big file ripgrep cannot read (a line longer than it may buffer) is read by the stream scanner in chunks this big, synchronously (~0.15 s of CPU per GB less than 4 MB stream reads: they stay in the cache). */
export const FILE_FALLBACK_CHUNK_BYTES = 64 * 1024;
/** Address space of a ripgrep reading a log file (ulimit -v): it buffers a whole line; past this it fails and the log is read in windows. It needs ~10 MB for its own; 64 MB fails a 1 GB line after ~32 MB read (256 MB read ~128 MB first). */
export const RG_LOG_MEMORY_BYTES = 64 * 1024 * 1024;
/** Raw line keys remembered with their template (src/evidence/templates.ts RawTemplateKeys). */
export const TEMPLATE_KEY_CACHE = 1 << 16;
/** Lines masked through lineTemplate per log at most (~5 µs each); past it a line is known by its raw key. */
export const TEMPLATE_MASK_BUDGET = 50_000;
/** Matchers see at most this many lines of the failing step (its end, where the cause usually is). */
export const MAX_STEP_LINES_FOR_MATCHERS = 60_000;

// ── Evidence and findings ──
/** Evidence lines a person would quote: whole blocks (an error with its trace), but not the whole tail. */
export const MAX_EVIDENCE_LINES = 40;
/** Evidence blocks at most: a build that failed six ways is summarised by its first six. */
export const MAX_EVIDENCE_BLOCKS = 6;
/**
 * How far above an Actions `##[error]` annotation to look for the line it repeats (restated-annotations.ts):
 * an action logs its failure just before it hands the message to `setFailed`, and a test runner's summary
 * annotation follows its report within a screen or two (vitest's, 41 lines on).
 */
export const RESTATED_ANNOTATION_LOOKBACK = 200;
/**
 * How far above a block pytest's `---- Captured … ----` banner is looked for (captured-output.ts): a failing
 * test that logs more than a few screens is not read back to its top, and the cost stays bounded.
 */
export const MAX_CAPTURED_LOOKBACK = 400;
/** Annotations compared with what came before them, the last ones of the step: the cost stays bounded. */
export const RESTATED_ANNOTATION_MAX = 50;
/** One block (a header and its continuation) is cut here: a 200-frame trace is quoted by its top. */
export const MAX_BLOCK_LINES = 25;
/** Seed lines grown into blocks by the generic finder, best first: a log with 10,000 error lines costs the same. */
export const MAX_EVIDENCE_SEEDS = 300;
/** Findings reported: the pin and a few alternatives. */
export const MAX_FINDINGS = 5;
/** Signals considered for locating, strongest first (a log with 10,000 lint errors). */
export const MAX_SIGNALS = 400;
/** Identifier tokens looked up in the repo with ripgrep (each lookup is one bounded rg run). */
export const MAX_IDENTIFIER_LOOKUPS = 24;
/** Checkout files named in the evidence read as places when no listed form placed the failure (src/locate/named-files.ts). */
export const MAX_NAMED_FILE_SIGNALS = 8;
/** Failing tests' lines whose error quotes a name looked for in what they call (each reads a few definitions). */
export const MAX_QUOTED_NAME_ANCHORS = 4;
/** Failing tests run from an inherited method whose running class's file is read for the expected value. */
export const MAX_INHERITED_TEST_ANCHORS = 4;
/**
 * The longest span a report may name (`in lines 20..35`) for the identifier fallback to look inside it:
 * a form or function, not a whole file, where any common word would be found somewhere.
 */
export const MAX_NAMED_SPAN_LINES = 200;
/** Below this confidence Redline says "no location": a wrong pin is worse than none. */
export const MIN_CONFIDENCE = 0.35;
/** Bytes of (decompressed) log read at most: a decompression bomb or endless stdin stops here. */
export const MAX_LOG_BYTES = 4 * 1024 * 1024 * 1024;
/** git diff output we read: a PR bigger than this is a vendoring or a generated-code PR; the prior is weak anyway. */
export const MAX_DIFF_BYTES = 32 * 1024 * 1024;
/** Source files bigger than this are not read for verification (generated bundles, data). */
export const MAX_SOURCE_FILE_BYTES = 4 * 1024 * 1024;
/** ripgrep's pass over the middle of a big log file: 1 GB takes well under a second; a stuck disk gets this long. */
export const BIG_FILE_RG_TIMEOUT_MS = 120_000;

// ── Code intelligence (tree-sitter map) ──
/** Default repo map budget: a map is a table of contents, about a page of signatures. */
export const DEFAULT_MAP_TOKENS = 1024;
/** Files tagged for a map at most: past this a monorepo is mapped in part (first files in path order). */
export const MAX_MAP_FILES = 20_000;
/** diagnose tags the whole checkout for the blame graph only up to this many code files; past it, only the files near the failure. */
export const MAX_GRAPH_FILES = 3_000;

// ── Configuration ──
/** `.github/redline.yml` is a few settings: past this it is refused before the YAML parser sees it (nesting bombs). */
export const MAX_CONFIG_BYTES = 64 * 1024;
/** Nesting of [ ] / { } allowed in the config: the YAML parser recurses per level (a bomb of brackets exhausts it). */
export const MAX_CONFIG_NESTING = 64;

// ── Webhooks (the App's door: src/doors/webhook-guard.ts, src/doors/payloads.ts) ──
/**
 * GitHub caps webhook payloads at 25 MB (it never delivers a bigger one): a bigger body is refused (413)
 * unread. 25 × 1024 × 1024, written out: a plain literal is dropped from the Action bundle, which has no webhooks.
 */
export const MAX_WEBHOOK_BODY_BYTES = 26_214_400;
/** A webhook body still arriving after this long is cut off (408): GitHub gives a whole delivery 10 s (30 s on GHES). */
export const MAX_WEBHOOK_BODY_MS = 30_000;
/** After refusing a body, what the client still sends is read and dropped this long before the connection is closed (no reset before the answer). */
export const WEBHOOK_LINGER_MS = 2_000;
/** Job, workflow, check and app names kept from a payload (they make the fingerprint family and the job id): the rest is cut. */
export const MAX_PAYLOAD_NAME_CHARS = 1_000;
/** A branch name longer than this is no git ref GitHub sends: the delivery is refused. */
export const MAX_PAYLOAD_REF_CHARS = 1_024;
/** URLs from a payload (repository, job and check pages) longer than this are refused. */
export const MAX_PAYLOAD_URL_CHARS = 2_048;
/** Check-run output fields kept (GitHub's own limit for summary and text; title is shorter). */
export const MAX_CHECK_OUTPUT_CHARS = 65_535;
/** Pull requests kept from a check run's `pull_requests`. */
export const MAX_PAYLOAD_PULLS = 100;

/** Redaction: a PEM block longer than this is not a key (an 16k-bit RSA key is ~12.5k chars). */
export const PEM_MAX_CHARS = 20_000;

/**
 * Redaction reads text in windows of this many characters (plus REDACT_OVERLAP_CHARS on each side), so
 * a line of any length costs time linear in its length: every pattern's attempt is bounded by the
 * window, and the window by this constant. 64 KiB keeps the per-window overhead small.
 */
export const REDACT_WINDOW_CHARS = 65_536;
/**
 * What a window also sees of its neighbours: a secret up to this long is found whole whichever window
 * it starts in (JWTs and signed URLs are the long ones; a PEM block is found on the whole text).
 */
export const REDACT_OVERLAP_CHARS = 8_192;
/** A base64 or percent-encoded run longer than this is not decoded (an image or an archive, not a token). */
export const REDACT_MAX_ENCODED_CHARS = 8_192;
/**
 * CI format detection reads this many lines from each end of the kept log. Every CI prints its frame at
 * the start (runner preamble, first step marker) and its verdict at the end, and nine detectors over a
 * 48 MB log kept whole cost ~1.6 s per million lines (measured); both ends cost a few milliseconds.
 */
export const FORMAT_DETECT_LINES = 20_000;
/**
 * How many lines a Travis `The command "…` exit message may span. A `script:` entry written as a YAML
 * block (`- |`) keeps its newlines, so the message runs from `The command "if …; then` to `fi\n" exited
 * with 2.`; script blocks are a few dozen lines, and the bound stops a stray quote from scanning the log.
 */
export const TRAVIS_COMMAND_MAX_LINES = 200;
/**
 * How far below a place alone on its line a numbered source excerpt may start for the two to be one report
 * (ReScript prints one blank line between them, pug none): a few lines, so a place in a list is not taken.
 */
export const EXCERPT_BELOW = 2;

/** How many lines of a program's stack trace an Ant task relayed above `BUILD FAILED` are walked up to find its exception line. */
export const MAX_ANT_TASK_TRACE = 60;
