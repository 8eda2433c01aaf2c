// The client's package manifest (libs/client/package.json) against the code: the version it is
// published as is the one it sends in its user agent, its two entries are the built index.ts and
// webhooks.ts (tsconfig.build.json compiles src/ to dist/), and it depends on nothing. What the
// tarball holds and that it installs and runs: test/client-package.e2e.spec.ts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { CLIENT_USER_AGENT, CLIENT_VERSION } from './core/version';

const CLIENT = join(__dirname, '..');
const manifest = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as Record<string, unknown>;
const build = JSON.parse(readFileSync(join(CLIENT, 'tsconfig.build.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };

/** `./dist/webhooks.js` → `webhooks.ts` under src/, as tsconfig.build.json maps rootDir to outDir. */
const sourceOf = (built: string) => join(CLIENT, 'src', built.replace(/^\.\/dist\//, '').replace(/\.(d\.ts|js)$/, '.ts'));

describe('the client package manifest', () => {
  it('is published at the version the client names itself with', () => {
    expect(manifest.version).toBe(CLIENT_VERSION);
    expect(CLIENT_USER_AGENT).toBe(`commerce-client/${manifest.version as string}`);
    expect(manifest.name).toBe('@collectibles-commerce/client');
  });

  it('has no dependencies of any kind', () => {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies']) {
      expect({ field, value: manifest[field] }).toEqual({ field, value: undefined });
    }
  });

  it('exports the browser-safe main entry and the node ./webhooks entry, each with its declarations, built from src/', () => {
    expect(build.compilerOptions).toMatchObject({ rootDir: 'src', outDir: 'dist', declaration: true });
    // The packaging test builds with the same tsconfig (into a staging copy), and packs what \`files\` names.
    const root = JSON.parse(readFileSync(join(CLIENT, '../../package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(root.scripts['client:build']).toBe('rm -rf libs/client/dist && tsc -p libs/client/tsconfig.build.json');
    expect(manifest).toMatchObject({ type: 'commonjs', main: './dist/index.js', types: './dist/index.d.ts', sideEffects: false, engines: { node: '>=20' } });
    const exportsMap = manifest.exports as Record<string, { types: string; default: string } | string>;
    expect(Object.keys(exportsMap).sort()).toEqual(['.', './package.json', './webhooks']);
    expect(exportsMap['.']).toEqual({ types: './dist/index.d.ts', default: './dist/index.js' });
    expect(exportsMap['./webhooks']).toEqual({ types: './dist/webhooks.d.ts', default: './dist/webhooks.js' });
    for (const entry of [exportsMap['.'], exportsMap['./webhooks']] as Array<{ types: string; default: string }>) {
      expect(existsSync(sourceOf(entry.default))).toBe(true);
      expect(sourceOf(entry.types)).toBe(sourceOf(entry.default));
    }
    // Only the build goes into the tarball (npm adds package.json and README.md itself).
    expect(manifest.files).toEqual(['dist/**/*.js', 'dist/**/*.d.ts']);
  });
});
