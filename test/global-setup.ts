// e2e suites boot the compiled app (dist/) as a real process: build it once, before any suite.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

export default function globalSetup(): void {
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: join(__dirname, '..'), stdio: 'inherit' });
}
