import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { redactSecrets } from '../../safety/redact.js';
import type { AgentRun } from './loop.js';

/**
 * Writes the conversation to `<dir>/llm-transcript.json`, redacted again (what was sent was already
 * redacted; the model's own words and the run's figures are redacted here too). Returns the path.
 */
export async function writeTranscript(dir: string, run: AgentRun, model: string): Promise<string> {
  const out = resolve(dir);
  await mkdir(out, { recursive: true });
  const file = join(out, 'llm-transcript.json');
  const { transcript, report, ...figures } = run;
  const body = JSON.stringify({ model, ...figures, report: report ?? null, turns: transcript }, null, 2);
  await writeFile(file, redactSecrets(body).text + '\n');
  return file;
}

/** A spill function for the tools that saves cut outputs under `<dir>/llm-spill/`, redacted. */
export function spillTo(dir: string): (name: string, content: string) => Promise<string> {
  return async (name, content) => {
    const folder = join(resolve(dir), 'llm-spill');
    await mkdir(folder, { recursive: true });
    const file = join(folder, name.replace(/[^A-Za-z0-9._-]/g, '_'));
    await writeFile(file, redactSecrets(content).text);
    return file;
  };
}
