// scripts/launch.cjs (what `npm run build`, `npm run cli` and `npm start` run) for the tests: plain
// CommonJS, since it runs before anything is built, so its shape is declared here.
import { join } from 'node:path';

export interface BuildInput {
  path: string;
  mtimeMs: number;
}

export interface Launcher {
  SOURCE_DIRS: readonly string[];
  IGNORED: readonly string[];
  BUILD_FILES: readonly string[];
  STAMP: string;
  ENTRIES: Readonly<Record<'cli' | 'api', string>>;
  staleReason(stampMtimeMs: number | null, inputs: Iterable<BuildInput>): string | null;
  ignoredByBuild(path: string): boolean;
  buildInputs(root: string): Generator<BuildInput>;
  buildStaleness(root: string): string | null;
  bannerNote(env: Record<string, string | undefined>, stdoutIsTTY: boolean): string | null;
}

export const LAUNCHER_PATH = join(__dirname, '..', '..', 'scripts', 'launch.cjs');

export const launcher = require(LAUNCHER_PATH) as Launcher;
