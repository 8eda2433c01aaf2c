// The OpenAPI document the server builds out of its own zod schemas, taken from the compiled app
// (dist/): composed in process, without a socket and without workers, on a throwaway DATA_DIR.
// Shared by the generators of the client's types and of docs/.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The document as `GET /api/v1/openapi.json` answers it; `fix` is the command to name when dist/ is missing. */
export async function openApiDocument(fix = 'npm run build') {
  const bootstrap = join(ROOT, 'dist/apps/api/src/bootstrap.js');
  if (!existsSync(bootstrap)) throw new Error(`dist/ is missing: run \`${fix}\` first`);
  const { createApp } = require(bootstrap);
  const { loadConfig } = require(join(ROOT, 'dist/libs/platform/src/index.js'));
  const dataDir = mkdtempSync(join(tmpdir(), 'cc-openapi-'));
  const app = await createApp(loadConfig({ DATA_DIR: dataDir, RUN_WORKERS: 'false', LOG_LEVEL: 'silent' }));
  try {
    await app.init();
    const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/api/v1/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /api/v1/openapi.json answered ${res.statusCode}`);
    return JSON.parse(res.body);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
