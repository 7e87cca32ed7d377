/**
 * Bounds of the GitHub App side, each with why. (Kept here, not in src/limits.ts, while that file is
 * being changed elsewhere; move them there when it settles.)
 */

/** Attempts to fetch a job log that answers 404 while the job finishes (GitHub: a running job's log is 404). */
export const LOG_FETCH_ATTEMPTS = 5;
/** First wait between those attempts; doubles each time (2, 4, 8, 16 s: half a minute in all). */
export const LOG_RETRY_BASE_MS = 2_000;
/** Fresh log links asked for in a row when the storage host refuses one (expired after a minute) or drops it. */
export const LOG_LINK_ATTEMPTS = 3;

/** Compressed tarball bytes we download at most: past this the repo is too big to diagnose in-process. */
export const MAX_TARBALL_BYTES = 512 * 1024 * 1024;
/** Uncompressed tar bytes we read at most: stops a gzip bomb (1 MB of zeros inflates to 1 GB) early. */
export const MAX_EXTRACTED_BYTES = 2 * 1024 * 1024 * 1024;
/** Entries in one tarball at most: a million empty files exhausts inodes without many bytes. */
export const MAX_TAR_ENTRIES = 300_000;
/** The checkout cache is trimmed (oldest first) to this total: a few large repos, many small ones. */
export const MAX_CACHE_BYTES = 8 * 1024 * 1024 * 1024;

/** Pages of a paginated list we read at most (100 per page): a PR with 3,000 files is one GitHub stops at anyway. */
export const MAX_PAGES = 30;
/** Open PRs scanned at most when looking up a fork PR by its head SHA. */
export const MAX_OPEN_PR_PAGES = 5;

// ── History (github/history.ts, issue 15) ──
/** API requests one failure may spend on its history (runs lists, jobs lists, log links): the budget. */
export const HISTORY_MAX_REQUESTS = 5;
/** Runs older than this are not compared with: the code, the toolchain and the runner image have moved on. */
export const HISTORY_MAX_AGE_DAYS = 14;
/** Runs per list request: the "last 10 completed runs" of the base branch. */
export const HISTORY_RUNS_PER_PAGE = 10;
/** Below this many requests left in the hour, history is skipped: the pin and its comment matter more. */
export const HISTORY_MIN_RATE_REMAINING = 500;
/** Lookups kept per process (per workflow, job and SHA): a matrix of 50 jobs re-delivered stays in. */
export const HISTORY_CACHE_ENTRIES = 500;
/** How long a lookup stays true: a base branch's newest run can change within minutes. */
export const HISTORY_CACHE_MS = 10 * 60_000;
/** Files GitHub's compare lists at most (its documented cap): at this count the list is cut. */
export const COMPARE_MAX_FILES = 300;
