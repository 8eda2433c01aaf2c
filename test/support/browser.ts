// Browser tests drive Debian's chromium (/usr/bin/chromium) through playwright-core: no browser
// is ever downloaded. When the package is missing and we are root (a CI container), it is
// installed from Debian with apt-get; otherwise the test fails with a message saying what to do.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const ARTIFACTS = join(__dirname, '..', 'artifacts');

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** Makes sure /usr/bin/chromium exists: apt-get installs Debian's package when run as root. */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    throw new Error(
      `${CHROMIUM} is missing and this user cannot install it: run ` +
        '`sudo apt-get update && sudo apt-get install -y chromium` (Debian package; no browser is downloaded)',
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env, timeout: 300_000 });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env, timeout: 600_000 });
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
  return CHROMIUM;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: ensureChromium(), headless: true, args: ARGS, timeout: 30_000 });
}

/** Where a test's screenshot goes (test/artifacts/<name>.png); the folder is made on demand. */
export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
