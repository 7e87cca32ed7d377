import { createWriteStream } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { isGzipFile, openLog } from '../log/open-log.js';
import { join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Diagnosis } from '../types.js';
import type { DiagnoseTrace } from '../diagnose.js';
import { redactSecrets } from '../safety/redact.js';
import { redactedText, redactFile } from '../safety/redact-outgoing.js';
import { renderJson } from './json.js';

/**
 * Writes what a person needs to check a diagnosis: the raw log as received, the cleaned log (the lines
 * Redline kept, numbered as in the raw log, with gaps marked), the diagnosis, and a JSON trace of every
 * step (failing step, signals, candidates with scores and checks). Every file is redacted (the Action
 * uploads them), the raw log too: its lines keep their number, so it can still be re-run.
 */
export async function writeArtifacts(dir: string, input: { log: string; diagnosis: Diagnosis; trace: DiagnoseTrace }): Promise<string> {
  const out = resolve(dir);
  await mkdir(out, { recursive: true });
  const raw = join(out, 'raw.log');
  // Every file through the one redactor (redact-outgoing.ts); the raw log a few MB at a time. A gzipped
  // log is stored as text (read through openLog: gunzipped, capped), since a compressed secret cannot be redacted.
  if (await isGzipFile(input.log)) {
    const plain = join(out, 'raw.log.tmp');
    await pipeline(Readable.from(openLog(input.log)), createWriteStream(plain));
    await redactFile(plain, raw);
    await rm(plain, { force: true });
  } else await redactFile(input.log, raw);
  await writeFile(join(out, 'cleaned.log'), await redactedText(cleanedLogText(input.trace)));
  await writeFile(join(out, 'diagnosis.json'), await redactedText(renderJson(input.diagnosis)));
  await writeFile(join(out, 'trace.json'), await redactedText(traceJsonText(input.trace)));
  return out;
}

/** The cleaned log: the lines Redline kept, numbered as in the raw log, gaps marked; redacted. */
export function cleanedLogText(trace: Pick<DiagnoseTrace, 'keptLines'>): string {
  const cleaned: string[] = [];
  let prev = 0;
  for (const l of trace.keptLines) {
    if (l.n > prev + 1) cleaned.push(`… ${l.n - prev - 1} line(s) not kept …`);
    cleaned.push(`${String(l.n).padStart(7)}  ${l.text}`);
    prev = l.n;
  }
  return redactSecrets(cleaned.join('\n') + '\n').text;
}

/** The trace of every step as JSON (without the kept lines, which are the cleaned log); redacted. */
export function traceJsonText(trace: DiagnoseTrace): string {
  const { keptLines, ...rest } = trace;
  void keptLines;
  return redactSecrets(JSON.stringify(rest, null, 2) + '\n').text;
}

/** Saves stdin to `<dir>/raw.log` so that it can be both diagnosed and kept as an artifact. */
export async function spoolStdin(dir: string): Promise<string> {
  const out = resolve(dir);
  await mkdir(out, { recursive: true });
  const raw = join(out, 'raw.log');
  await pipeline(process.stdin, createWriteStream(raw));
  return raw;
}
