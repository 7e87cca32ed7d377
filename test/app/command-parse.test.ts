import { describe, expect, it } from 'vitest';
import { isBotOrOurs, parseCommand, REPLY_MARKER } from '../../src/doors/command.js';
import { anyBot } from '../../src/github/comments.js';

describe('parseCommand', () => {
  it('reads /redline and its subcommands at the start of a line', () => {
    expect(parseCommand('/redline')).toEqual({ name: 'diagnose' });
    expect(parseCommand('Looks flaky.\n/redline retry\nthanks')).toEqual({ name: 'retry' });
    expect(parseCommand('  /redline EXPLAIN please')).toEqual({ name: 'explain' });
    expect(parseCommand('/redline help\r\n')).toEqual({ name: 'help' });
    expect(parseCommand('/redline frobnicate')).toEqual({ name: 'unknown', word: 'frobnicate' });
  });

  it('ignores the command anywhere but at the start of a line, and look-alikes', () => {
    expect(parseCommand('please run /redline')).toBeUndefined();
    expect(parseCommand('`/redline` is the command')).toBeUndefined();
    expect(parseCommand('/redlines')).toBeUndefined();
    expect(parseCommand('/redline-retry')).toBeUndefined();
    expect(parseCommand('')).toBeUndefined();
    expect(parseCommand(null)).toBeUndefined();
  });

  it('never reads a command inside fenced or indented code, or in a quote', () => {
    expect(parseCommand('```\n/redline retry\n```')).toBeUndefined();
    expect(parseCommand('~~~~md\n/redline\n~~~\n/redline\n~~~~')).toBeUndefined(); // a shorter fence does not close
    expect(parseCommand('````\n```\n/redline\n````')).toBeUndefined();
    expect(parseCommand('    /redline retry')).toBeUndefined();
    expect(parseCommand('\t/redline')).toBeUndefined();
    expect(parseCommand('> /redline retry')).toBeUndefined();
    expect(parseCommand('  > > /redline')).toBeUndefined();
    // After the fence closes, a real command counts.
    expect(parseCommand('```\n/redline help\n```\n/redline retry')).toEqual({ name: 'retry' });
  });

  it('an unclosed fence hides the rest of the comment', () => {
    expect(parseCommand('```sh\n/redline\n')).toBeUndefined();
  });
});

describe('isBotOrOurs', () => {
  it('bots by type or [bot] login, our own account, and bodies carrying our markers', () => {
    const none = () => false;
    expect(isBotOrOurs({ login: 'dependabot[bot]', type: 'User' }, '/redline', none)).toBe(true);
    expect(isBotOrOurs({ login: 'ci', type: 'Bot' }, '/redline', none)).toBe(true);
    expect(isBotOrOurs({ login: 'redline', type: 'User' }, '/redline', (u) => u?.login === 'redline')).toBe(true);
    expect(isBotOrOurs({ login: 'octocat', type: 'User' }, `${REPLY_MARKER}\n/redline`, anyBot)).toBe(true);
    expect(isBotOrOurs({ login: 'octocat', type: 'User' }, '/redline', anyBot)).toBe(false);
  });
});
