// The CLI's front door (issue 31): --version and -V answer without a command, --help lists every
// command while loading none of them, and a command's own help still has its flags (its module is
// loaded only when it is the one named). Start-up times are in `npm run bench -- startup`, not here.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { COMMAND_HEADS } from '../../src/cli/command-heads.js';
import { commandOf } from '../../src/cli/commands.js';

const VERSION = (JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('servebench --version', () => {
  it.each([[['--version']], [['-V']], [['profile', '--version']]])('%j prints the package version and exits 0', async (args) => {
    const r = await runCli(args);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${VERSION}\n`);
    expect(r.stderr).toBe('');
  });
});

describe('servebench --help', () => {
  it('lists every command with its description, and --version', async () => {
    const r = await runCli(['--help']);
    expect(r.code, r.stderr).toBe(0);
    for (const head of Object.values(COMMAND_HEADS)) {
      expect(r.stdout).toContain(`servebench ${head.command}`);
      expect(r.stdout).toContain(head.describe.split(' ').slice(0, 4).join(' '));
    }
    expect(r.stdout).toMatch(/-V, --version/);
  });

  it("a command's help has its own flags", async () => {
    const profile = await runCli(['profile', '--help']);
    expect(profile.code, profile.stderr).toBe(0);
    expect(profile.stdout).toMatch(/--url/);
    expect(profile.stdout).toMatch(/--request-count/);
    const mock = await runCli(['mock', '--help']);
    expect(mock.code, mock.stderr).toBe(0);
    expect(mock.stdout).toMatch(/--ttft-ms/);
    expect(mock.stdout).not.toMatch(/--request-count/);
  });

  it('no command, or an unknown one, is bad input (exit 2)', async () => {
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/a command is required/);
    const typo = await runCli(['profil']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/Did you mean profile\?/);
  });
});

describe('commandOf', () => {
  it('is the first word that is not a flag, when it names a command', () => {
    expect(commandOf(['profile', '--url', 'x'])).toBe('profile');
    expect(commandOf(['--help', 'mock'])).toBe('mock');
    expect(commandOf(['--help'])).toBeNull();
    expect(commandOf(['profil'])).toBeNull();
    expect(commandOf(['toString'])).toBeNull();
  });
});
