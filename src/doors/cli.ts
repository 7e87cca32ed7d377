import { RedlineError, UsageError } from '../errors.js';

/**
 * The CLI's front door: parses the command and loads only that command's module, so `redline map` does
 * not pay for loading the diagnosis pipeline and the LLM client (half a second of start-up). The redactor
 * (hundreds of secret rules) loads only when there is an error message to redact: `--version` and
 * `--help` stay at Node's own start-up.
 */
export interface CliIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  version: string;
  /** Where ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL are read (default process.env). */
  env?: NodeJS.ProcessEnv;
}

/** Runs the CLI; returns the exit code. Only this door turns errors into exit codes and one-line messages. */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (e) {
    const { redactSecrets } = await import('../safety/redact.js');
    if (e instanceof UsageError) {
      io.stderr.write(`redline: ${redactSecrets(e.message).text}\n`);
      return 2;
    }
    const msg = e instanceof RedlineError ? e.message : `internal error: ${(e as Error)?.message ?? String(e)} (please report it with the --artifacts folder)`;
    io.stderr.write(`redline: ${redactSecrets(msg).text}\n`); // an error may quote the log
    return 1;
  }
}

/** How long a stopped worker may take to exit by itself (flushing its logs) before it is made to. */
const WORKER_EXIT_GRACE_MS = 500;

async function dispatch(argv: string[], io: CliIO): Promise<number> {
  const [command, ...rest] = argv;
  if (!command) throw new UsageError('no command: run "redline diagnose --log <file>", or "redline --help" for the options');
  if (command === '--help' || command === '-h' || command === 'help') {
    const [{ DIAGNOSE_USAGE }, { MAP_USAGE }, { WORKER_USAGE }] = await Promise.all([import('./diagnose-usage.js'), import('./map-usage.js'), import('./worker-usage.js')]);
    io.stdout.write(DIAGNOSE_USAGE + '\n\n' + MAP_USAGE + '\n\n' + WORKER_USAGE + '\n');
    return 0;
  }
  if (command === '--version' || command === '-v') {
    io.stdout.write(io.version + '\n');
    return 0;
  }
  if (command === 'map') return (await import('./map-command.js')).mapCommand(rest, io);
  if (command === 'worker') {
    const code = await (await import('./worker.js')).workerCommand(rest, io);
    // Probot's shared throttling (Bottleneck on REDIS_URL, the same limiter as the App's) keeps two Redis
    // connections it never closes: once our own cleanup is done, the worker exits instead of lingering.
    setTimeout(() => process.exit(code), WORKER_EXIT_GRACE_MS).unref();
    return code;
  }
  if (command !== 'diagnose') throw new UsageError(`unknown command "${command}": run "redline --help"`);
  return (await import('./diagnose-command.js')).diagnoseCommand(rest, io);
}

