// The client's request and response types are generated from the OpenAPI document the server
// builds out of its own zod schemas (scripts/generate-client-types.mjs). This fails while the
// committed file differs from what the server's routes generate now — a route changed without
// `npm run client:types`, so the client would type-check against routes that no longer exist.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

describe('client types (e2e)', () => {
  it('are generated from the server\'s current routes', async () => {
    const { stdout } = await run(process.execPath, [join(ROOT, 'scripts/generate-client-types.mjs'), '--check'], { cwd: ROOT, timeout: 120_000 }).catch((error: { stderr?: string }) => {
      throw new Error(`stale client types: ${error.stderr ?? String(error)}`);
    });
    expect(stdout).toContain('up to date');
  }, 150_000);
});
