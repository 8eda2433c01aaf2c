// The launcher's decisions (scripts/launch.cjs): when dist/ must be built again before the CLI or
// the API runs, what the build leaves out, and when npm's banner spoils piped JSON.
import { launcher } from './support/launcher';

const { staleReason, ignoredByBuild, bannerNote } = launcher;

describe('when the build is stale', () => {
  const inputs = (...mtimes: Array<[string, number]>) => mtimes.map(([path, mtimeMs]) => ({ path, mtimeMs }));

  it('is current when every input is older than the moment the last build began', () => {
    expect(staleReason(1000, inputs(['apps/', 900], ['apps/cli/src/main.ts', 999.9], ['.swcrc', 10]))).toBeNull();
    expect(staleReason(1000, [])).toBeNull();
  });

  it('is stale without a stamp: never built, or the last build failed', () => {
    expect(staleReason(null, inputs(['apps/cli/src/main.ts', 1]))).toBe('no finished build in dist/ yet');
  });

  it('is stale when an input changed at or after that moment, and names the first', () => {
    expect(staleReason(1000, inputs(['apps/', 900], ['libs/portal/src/web/portal.css', 1000], ['libs/x.ts', 2000]))).toBe(
      'libs/portal/src/web/portal.css changed since the last build',
    );
    // A folder whose time moved: a file was added, removed or renamed in it.
    expect(staleReason(1000, inputs(['libs/platform/src/', 1500]))).toBe('libs/platform/src/ changed since the last build');
  });

  it('stops at the first newer input (the walk is lazy)', () => {
    let read = 0;
    function* walk() {
      for (const [path, mtimeMs] of [['a', 1], ['b', 5000], ['c', 1]] as const) {
        read += 1;
        yield { path, mtimeMs };
      }
    }
    expect(staleReason(1000, walk())).toBe('b changed since the last build');
    expect(read).toBe(2);
  });
});

describe('what the build leaves out', () => {
  it("skips the catalogue's raw data, libraries' own dist/, the client's package.json and node_modules", () => {
    expect(['libs/catalog/data', 'libs/catalog/data/cards.csv', 'libs/client/dist', 'libs/client/dist/index.js', 'libs/client/package.json', 'apps/x/node_modules/y.js'].filter(ignoredByBuild)).toHaveLength(6);
  });

  it('reads everything else under apps/ and libs/, assets included', () => {
    expect(['libs/portal/src/web/portal.css', 'libs/client/src/index.ts', 'apps/cli/src/main.ts', 'libs/catalog/src/data/sets.generated.ts', 'libs/catalog/src/data'].filter(ignoredByBuild)).toEqual([]);
  });
});

describe("npm's banner before piped JSON", () => {
  const npmRun = { npm_lifecycle_event: 'cli' };

  it('is pointed out when npm printed it and stdout is not a terminal', () => {
    expect(bannerNote(npmRun, false)).toContain('npm run -s cli -- …');
  });

  it('is not, on a terminal, with npm run -s (or --json: the banner goes to stderr), or without npm', () => {
    expect(bannerNote(npmRun, true)).toBeNull();
    expect(bannerNote({ ...npmRun, npm_config_loglevel: 'silent' }, false)).toBeNull();
    expect(bannerNote({ ...npmRun, npm_config_json: 'true' }, false)).toBeNull();
    expect(bannerNote({}, false)).toBeNull();
  });
});
