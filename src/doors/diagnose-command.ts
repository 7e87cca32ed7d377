import { parseArgs } from 'node:util';
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { diagnoseWithTrace } from '../diagnose.js';
import { render, FORMATS, type Format } from '../report/index.js';
import { writeArtifacts, spoolStdin } from '../report/artifacts.js';
import { UsageError } from '../errors.js';
import { mustBeDir, mustBeFile } from './check-args.js';
import { resolveInside } from '../safety/confine.js';
import { redactSecrets } from '../safety/redact.js';
import { MAX_SOURCE_FILE_BYTES } from '../limits.js';
import type { LlmRequest } from '../locate/agent/index.js';
import type { CliIO } from './cli.js';
import { DIAGNOSE_USAGE } from './diagnose-usage.js';

export { DIAGNOSE_USAGE };

/** `redline diagnose`: one diagnosis of a log (and a checkout), printed in the chosen format. */
export async function diagnoseCommand(args: string[], io: CliIO): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        log: { type: 'string' },
        repo: { type: 'string' },
        base: { type: 'string' },
        format: { type: 'string', default: 'text' },
        artifacts: { type: 'string' },
        llm: { type: 'boolean' },
        'no-llm': { type: 'boolean' },
        'passing-log': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split('\n')[0]}; run "redline diagnose --help"`);
  }
  if (values.help) {
    io.stdout.write(DIAGNOSE_USAGE + '\n');
    return 0;
  }
  if (!values.log) throw new UsageError('--log is required: pass the CI log file, or - to read stdin');
  const format = values.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format ${values.format} is not one of ${FORMATS.join(', ')}`);
  if (values.log !== '-') mustBeFile(values.log, '--log');
  const passingLog = values['passing-log'];
  if (passingLog !== undefined) {
    if (passingLog === '-') throw new UsageError('--passing-log - is not supported: stdin is for --log; pass the passing log as a file');
    mustBeFile(passingLog, '--passing-log');
  }
  if (values.repo) mustBeDir(values.repo, '--repo');
  if (values.base && !values.repo) throw new UsageError('--base needs --repo: the changed lines are read from that checkout');

  const llm = await llmRequest(values, io);

  const progress = io.stderr.isTTY ? (m: string) => io.stderr.write(`\r\x1b[2K${m}…`) : undefined;
  let log: string = values.log;
  if (values.artifacts && log === '-') log = await spoolStdin(values.artifacts);
  const { diagnosis, trace } = await diagnoseWithTrace({
    log,
    ...(values.repo ? { repo: values.repo } : {}),
    ...(values.base ? { base: values.base } : {}),
    ...(progress ? { onProgress: progress } : {}),
    ...(llm ? { llm } : {}),
    ...(passingLog ? { passingLog: { source: passingLog } } : {}),
  });
  if (progress) io.stderr.write('\r\x1b[2K');
  if (trace.agent) {
    const a = trace.agent;
    io.stderr.write(
      redactSecrets(`redline: LLM ${a.adopted ? `pin verified (${a.report?.file}:${a.report?.line})` : `kept the deterministic answer (${a.stop}${a.error ? `: ${a.error.slice(0, 200)}` : ''})`}; ` +
        `${a.turns} turn(s), ${a.inputTokens} input tokens (${a.cacheReadTokens} from cache), ~$${a.usd.toFixed(4)}\n`).text,
    );
  }
  const repo = values.repo ? resolve(values.repo) : undefined;
  io.stdout.write(
    withNewline(
      render(diagnosis, format, {
        color: format === 'text' && !!io.stdout.isTTY,
        toolVersion: io.version,
        ...(repo ? { source: sourceReader(repo) } : {}),
      }),
    ),
  );
  if (values.artifacts) {
    const where = await writeArtifacts(values.artifacts, { log, diagnosis, trace });
    io.stderr.write(`redline: artifacts written to ${where}\n`);
  }
  return 0;
}

/**
 * LLM mode from the flags, the key and the config file: `--llm` without a key is a usage error; a bad
 * config file is reported and the diagnosis runs without a model.
 */
async function llmRequest(values: { llm?: boolean; 'no-llm'?: boolean; repo?: string; artifacts?: string }, io: CliIO): Promise<LlmRequest | undefined> {
  if (values.llm && values['no-llm']) throw new UsageError('--llm and --no-llm contradict each other: pass one of them');
  const flag = values['no-llm'] ? false : values.llm ? true : undefined;
  if (flag === false) return undefined;
  const env = io.env ?? process.env;
  const apiKey = env.ANTHROPIC_API_KEY;
  // Without --llm, no key or no checkout means no model, whatever the config says: the config's parser
  // (yaml + zod, ~1 MB of code) is not loaded for a run that cannot use it.
  if (flag !== true && (!values.repo || !apiKey)) return undefined;
  const { ConfigError, loadConfig, llmMode } = await import('../config.js');
  const early = llmMode({ flag, apiKey, config: {} });
  if (early.error) throw new UsageError(early.error);
  if (flag === true && !values.repo) throw new UsageError('--llm needs --repo: the model investigates the checkout');
  if (!values.repo || !apiKey) return undefined;
  let config;
  try {
    config = await loadConfig(values.repo);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.stderr.write(`redline: ${redactSecrets(e.message).text}; running without LLM mode\n`);
    return undefined;
  }
  if (!llmMode({ flag, apiKey, config: config.llm }).on) return undefined;
  const baseURL = env.ANTHROPIC_BASE_URL;
  // Loaded only in LLM mode: the SDK is ~250 modules (a third of a small diagnosis's start-up).
  const { anthropicChatModel } = await import('../locate/agent/chat-model.js');
  return {
    model: anthropicChatModel({ apiKey, ...(baseURL ? { baseURL } : {}) }),
    config: config.llm,
    ...(values.artifacts ? { artifactsDir: values.artifacts } : {}),
  };
}

function sourceReader(repo: string): (file: string) => string[] | undefined {
  return (file) => {
    try {
      const p = resolveInside(repo, file);
      if (statSync(p).size > MAX_SOURCE_FILE_BYTES) return undefined;
      return readFileSync(p, 'utf8').split(/\r?\n/);
    } catch {
      return undefined;
    }
  };
}

function withNewline(s: string): string {
  return s.endsWith('\n') ? s : s + '\n';
}
