import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  classifyOutput,
  hintFor,
  PackageManagerReason,
  SetupLog,
  withoutUsageText,
} from '../../../src/images/setup-failure.js';

const fixture = (name: string): string[] =>
  readFileSync(join(import.meta.dirname, '../../fixtures/setup-output', name), 'utf8').split('\n');

function reasonsOf(lines: readonly string[]): string[] {
  const r = new PackageManagerReason();
  for (const l of lines) r.add(l);
  return r.reasons();
}

describe("a package manager's own reason", () => {
  it("npm 11's EUSAGE for a lockfile out of sync: the reason and the missing package, not the usage text", () => {
    // captured from npm 11.21.2 (node 24.21.0) refusing a lockfile npm 11.19.1 wrote
    expect(reasonsOf(fixture('npm-11-ci-out-of-sync.txt'))).toEqual([
      '`npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.',
      'Missing: napi-windows-process-start-time@ from lock file',
    ]);
  });

  it("npm 8's `npm ERR!` form reads the same", () => {
    expect(reasonsOf(fixture('npm-8-ci-out-of-sync.txt'))).toEqual([
      '`npm ci` can only install packages when your package.json and package-lock.json or npm-shrinkwrap.json are in sync. Please update your lock file with `npm install` before continuing.',
      'Missing: ms@2.1.3 from lock file',
    ]);
  });

  it('other package managers: pnpm, yarn, pip', () => {
    expect(
      reasonsOf([
        ' ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/package.json',
        'Note that in CI environments this setting is true by default.',
      ]),
    ).toEqual([
      'ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date with <ROOT>/package.json',
    ]);
    expect(reasonsOf(['error Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`.'])).toEqual([
      'Your lockfile needs to be updated, but yarn was run with `--frozen-lockfile`.',
    ]);
    expect(reasonsOf(['ERROR: No matching distribution found for leftpad==9'])).toEqual([
      'No matching distribution found for leftpad==9',
    ]);
  });

  it('says nothing for output without a reason line', () => {
    expect(reasonsOf(['added 3 packages in 2s', 'npm error code E1', 'npm error A complete log of this run'])).toEqual(
      [],
    );
  });

  it('the kind is the lockfile, with a hint that says what to do', () => {
    const { kind, evidence } = classifyOutput(fixture('npm-11-ci-out-of-sync.txt'));
    expect(kind).toBe('lockfile');
    expect(evidence).toContain('are in sync');
    expect(hintFor('lockfile')).toMatch(/update the lockfile/);
  });

  it("the tail quoted in SETUP_FAILED leaves npm's usage text out, and keeps the reason", () => {
    const tail = withoutUsageText(fixture('npm-11-ci-out-of-sync.txt'));
    expect(tail.join('\n')).toContain('Missing: napi-windows-process-start-time@ from lock file');
    expect(tail.join('\n')).not.toMatch(/Clean install a project|--allow-scripts|aliases: clean-install/);
    expect(tail.join('\n')).toContain('A complete log of this run');
  });
});

describe('SetupLog', () => {
  it("keeps setup's drift lines and the package manager's reasons", () => {
    const log = new SetupLog();
    for (const l of [
      ...fixture('npm-8-ci-out-of-sync.txt'),
      'hammer-box: npm ci refused package-lock.json as out of sync with package.json; installing from it with npm install',
      'added 2 packages in 1s',
      'hammer-box: drift: npm ci refused package-lock.json as out of sync with package.json (Missing: ms@2.1.3 from lock file); installed with npm install',
    ])
      log.add(l);
    expect(log.drift()).toEqual([
      'npm ci refused package-lock.json as out of sync with package.json (Missing: ms@2.1.3 from lock file); installed with npm install',
    ]);
    expect(log.reasons()).toContain('Missing: ms@2.1.3 from lock file');
  });
});
