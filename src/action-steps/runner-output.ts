/**
 * Everything the Action says to the runner: annotations as workflow commands (capped at GitHub's 10
 * errors per step), blocks of log text that can never act as commands, outputs and the job summary.
 * Everything is redacted here (the one redactor, safety/redact.ts); report.ts hands annotate/echo/info
 * text already through `redactOutgoing` too.
 */
import { randomBytes } from 'node:crypto';
import * as core from '@actions/core';
import { redactSecrets } from '../safety/redact.js';
import { redactedText } from '../safety/redact-outgoing.js';
import { escapeWorkflowCommands } from '../safety/sanitize.js';

/** Actions shows at most 10 error annotations per step; more are dropped silently. */
export const MAX_STEP_ANNOTATIONS = 10;

export interface RunnerOutput {
  /** An `::error file=…,line=…::` annotation; false once the step's cap is reached. */
  annotate(file: string, line: number, title: string, message: string): boolean;
  /** Prints lines of untrusted text: escaped line by line and fenced by `::stop-commands::<random>`. */
  echo(heading: string, lines: readonly string[]): void;
  info(message: string): void;
  warn(message: string): void;
}

export function runnerOutput(write: (s: string) => void = (s) => process.stdout.write(s)): RunnerOutput {
  let annotations = 0;
  return {
    annotate(file, line, title, message) {
      if (annotations >= MAX_STEP_ANNOTATIONS) return false;
      annotations++;
      // core escapes %, CR and LF in the message and `,`/`:` in properties: one command line, nothing else.
      core.error(redactSecrets(message).text, { file, startLine: line, title });
      return true;
    },
    echo(heading, lines) {
      const token = randomBytes(16).toString('hex');
      write(`${escapeWorkflowCommands(heading)}\n::stop-commands::${token}\n`);
      for (const l of lines) write(`${escapeWorkflowCommands(redactSecrets(l).text.replace(/\r/g, ''))}\n`);
      write(`::${token}::\n`);
    },
    info(message) {
      write(`${escapeWorkflowCommands(redactSecrets(message).text)}\n`);
    },
    warn(message) {
      core.warning(redactSecrets(message).text);
    },
  };
}

/** The step's outputs (`$GITHUB_OUTPUT`); every name is set, empty when unknown. */
export function setOutputs(o: { file?: string; line?: number; category?: string; status?: string; commentUrl?: string }): void {
  core.setOutput('file', o.file ?? '');
  core.setOutput('line', o.line !== undefined ? String(o.line) : '');
  core.setOutput('category', o.category ?? '');
  core.setOutput('status', o.status ?? '');
  core.setOutput('comment-url', o.commentUrl ?? '');
}

/** Appends markdown to the job summary (`$GITHUB_STEP_SUMMARY`); nothing when the runner gives none. */
export async function appendSummary(markdown: string): Promise<void> {
  if (!process.env.GITHUB_STEP_SUMMARY) return;
  // The summary's one writer: secretlint's preset + our patterns (redact-outgoing.ts).
  await core.summary.addRaw(await redactedText(markdown), true).write();
  core.summary.emptyBuffer();
}
