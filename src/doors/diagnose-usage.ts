/** `redline diagnose --help`, apart from the command so `redline --help` prints it without loading the pipeline. */
export const DIAGNOSE_USAGE = `usage: redline diagnose --log <file|-> [--repo <dir>] [--base <git-ref>] [--format text|json|markdown|sarif]
                        [--artifacts <dir>] [--llm | --no-llm] [--passing-log <file>]

  --log        the CI log to read (a file, or - for stdin; gzip is detected)
  --repo       the checkout of the failing commit (optional: without it, paths are reported as the log names them)
  --base       the PR's base ref; its changed lines (git diff <base>...HEAD) are the strongest prior
  --format     text (default; for people), json (versioned contract), markdown (PR comment body), sarif (code scanning)
  --artifacts  write the raw log, the cleaned log and a JSON trace of every step into this folder
  --llm        let a Claude model refine the pin with read-only tools (needs --repo and ANTHROPIC_API_KEY;
               on by default when the key is set; settings in .github/redline.yml under llm:)
  --no-llm     never call a model, even when ANTHROPIC_API_KEY is set
  --passing-log  a log of a passing run of the same job (same workflow and job name): lines new in the
               failing step become evidence, lines the passing run printed too are not causes (gzip is detected)

Exit codes: 0 a diagnosis was produced (located or not), 2 usage error, 1 internal error.`;
