// The /docs page: Swagger UI from the swagger-ui-dist package, served by this app (no CDN). No
// inline script or style element, so a CSP of `script-src 'self'` holds; Swagger UI itself needs
// `style-src 'self' 'unsafe-inline'` (React style attributes), `img-src 'self' data:` (its icons)
// and `connect-src 'self'` (it fetches the document).
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

export const OPENAPI_JSON_PATH = '/api/v1/openapi.json';
export const DOCS_ASSETS_PATH = '/docs/assets';

interface Asset {
  contentType: string;
  /** A file of swagger-ui-dist, or content of our own. */
  source: { file: string } | { content: string };
}

// Written out, not inferred from the page, so the assets route can serve nothing else.
const DOCS_INIT_JS = `// Starts Swagger UI on the API's own OpenAPI document.
window.ui = SwaggerUIBundle({
  url: ${JSON.stringify(OPENAPI_JSON_PATH)},
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis],
  layout: 'BaseLayout',
});
`;

const ASSETS: Readonly<Record<string, Asset>> = {
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', source: { file: 'swagger-ui.css' } },
  'swagger-ui-bundle.js': { contentType: 'text/javascript; charset=utf-8', source: { file: 'swagger-ui-bundle.js' } },
  'favicon-32x32.png': { contentType: 'image/png', source: { file: 'favicon-32x32.png' } },
  'favicon-16x16.png': { contentType: 'image/png', source: { file: 'favicon-16x16.png' } },
  'docs-init.js': { contentType: 'text/javascript; charset=utf-8', source: { content: DOCS_INIT_JS } },
};

export const DOCS_ASSET_NAMES = Object.keys(ASSETS);

export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Collectibles Commerce API — reference</title>
    <link rel="stylesheet" href="${DOCS_ASSETS_PATH}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${DOCS_ASSETS_PATH}/favicon-32x32.png" sizes="32x32">
    <link rel="icon" type="image/png" href="${DOCS_ASSETS_PATH}/favicon-16x16.png" sizes="16x16">
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_ASSETS_PATH}/swagger-ui-bundle.js"></script>
    <script src="${DOCS_ASSETS_PATH}/docs-init.js"></script>
  </body>
</html>
`;

export interface LoadedAsset {
  contentType: string;
  body: Buffer;
}

/** Reads allowlisted assets once; the bundle is large and never changes while the process runs. */
export class DocsAssets {
  private readonly loaded = new Map<string, Promise<LoadedAsset>>();

  /** Undefined for any name outside the allowlist (so no path ever reaches the file system). */
  get(name: string): Promise<LoadedAsset> | undefined {
    if (!Object.hasOwn(ASSETS, name)) return undefined;
    let asset = this.loaded.get(name);
    if (!asset) {
      asset = load(ASSETS[name]);
      // A failed read is retried on the next request instead of being cached.
      asset.catch(() => this.loaded.delete(name));
      this.loaded.set(name, asset);
    }
    return asset;
  }
}

async function load(asset: Asset): Promise<LoadedAsset> {
  if ('content' in asset.source) return { contentType: asset.contentType, body: Buffer.from(asset.source.content) };
  const folder = dirname(require.resolve('swagger-ui-dist/package.json'));
  return { contentType: asset.contentType, body: await readFile(join(folder, asset.source.file)) };
}
