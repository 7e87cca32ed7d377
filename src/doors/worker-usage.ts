/** `redline worker --help`, apart from the command so `redline --help` prints it without loading Probot and BullMQ. */
export const WORKER_USAGE = `Usage: redline worker [--concurrency N]

Runs the GitHub App's queued diagnoses from Redis. Environment: REDIS_URL (required), APP_ID,
PRIVATE_KEY or PRIVATE_KEY_PATH, WEBHOOK_SECRET or REDLINE_ARTIFACT_KEY (artifact links),
GHE_HOST/GHE_PROTOCOL (GitHub Enterprise Server), REDLINE_CACHE_DIR, REDLINE_CONCURRENCY (default 4).`;
