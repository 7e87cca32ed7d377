/**
 * What the runner tells the Action: its inputs (`INPUT_<NAME>`, upper-cased, dashes kept), the run's
 * environment (`GITHUB_*`) and the event payload. Read once, validated, and nothing else reads env.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
/** The runner's way: `INPUT_` + the name upper-cased, spaces to `_`, dashes kept (`INPUT_LOG-FILE`). */
export function input(env, name) {
    return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}
/** Reads the context from the environment; throws with a readable message when the runner's variables are missing. */
export function readContext(env = process.env) {
    const need = (k) => {
        const v = env[k];
        if (!v)
            throw new Error(`${k} is not set: run this as a step of a GitHub Actions job`);
        return v;
    };
    const [owner, repo] = need('GITHUB_REPOSITORY').split('/');
    const workspace = need('GITHUB_WORKSPACE');
    const comment = input(env, 'comment');
    if (comment && !['review', 'annotations', 'none'].includes(comment))
        throw new Error(`input comment must be review, annotations or none (got ${JSON.stringify(comment.slice(0, 40))})`);
    const logFile = input(env, 'log-file');
    const configPath = input(env, 'config');
    const key = input(env, 'anthropic-api-key');
    const eventName = env.GITHUB_EVENT_NAME ?? '';
    let event = {};
    try {
        if (env.GITHUB_EVENT_PATH)
            event = JSON.parse(readFileSync(env.GITHUB_EVENT_PATH, 'utf8'));
    }
    catch {
        event = {};
    }
    const p = event.pull_request;
    const full = `${owner}/${repo}`.toLowerCase();
    const headRepo = p?.head.repo?.full_name?.toLowerCase();
    return {
        token: input(env, 'github-token') || env.GITHUB_TOKEN || '',
        ...(logFile ? { logFile: isAbsolute(logFile) ? logFile : resolve(workspace, logFile) } : {}),
        jobs: input(env, 'jobs').split(/[\n,]/).map((s) => s.trim()).filter(Boolean),
        ...(comment ? { comment: comment } : {}),
        ...(key ? { anthropicApiKey: key } : {}),
        ...(configPath ? { configPath: isAbsolute(configPath) ? configPath : resolve(workspace, configPath) } : {}),
        ref: { owner, repo },
        apiUrl: (env.GITHUB_API_URL ?? 'https://api.github.com').replace(/\/$/, ''),
        repoUrl: `${(env.GITHUB_SERVER_URL ?? 'https://github.com').replace(/\/$/, '')}/${owner}/${repo}`,
        workspace,
        runId: Number(env.GITHUB_RUN_ID ?? 0),
        jobName: `${env.GITHUB_WORKFLOW ?? ''} / ${env.GITHUB_JOB ?? ''}`,
        sha: p?.head.sha ?? env.GITHUB_SHA ?? '',
        eventName,
        ...(p
            ? {
                pr: {
                    number: p.number,
                    headSha: p.head.sha,
                    baseRef: p.base.ref,
                    // A `pull_request` run from a fork gets a read-only token: no write is even tried.
                    fromFork: eventName === 'pull_request' && !!headRepo && headRepo !== full,
                },
            }
            : {}),
    };
}
//# sourceMappingURL=context.js.map