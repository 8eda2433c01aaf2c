// The route list of docs/routes.md, generated from the OpenAPI document the app serves (written
// there by scripts/generate-docs.mjs, `npm run docs`; a test fails when the committed list differs
// from what the routes generate). Pure: a document in, Markdown out.
import type { HttpMethod, OpenApiDocument, OperationObject } from './openapi-types';

/** The guide in docs/ that explains each tag's routes (relative to docs/). */
export const TAG_GUIDES: Readonly<Record<string, string>> = {
  'Buyer requests': 'demand.md',
  Buyers: 'widget.md#buyers-personal-data-crypto-shredding',
  Inventory: 'supply.md',
  Intake: 'supply.md#intake-sessions-stock-in-bulk',
  Matching: 'matching.md',
  Offers: 'trading.md',
  Trades: 'trading.md',
  Holds: 'trading.md',
  'Live selling': 'live.md',
  Automations: 'automations.md',
  Trust: 'trust.md',
  'Trust embeds': 'trust.md#badge-qr-code-verification-page',
  Tradegraph: 'tradegraph.md',
  Webhooks: 'webhooks.md',
  Events: 'webhooks.md#the-event-log-and-the-event-catalogue',
  Widget: 'widget.md',
  'Widget (public)': 'widget.md',
  Notifications: 'notifications.md',
  Portal: 'portal.md',
  'API keys': 'api.md#authentication-and-scopes',
  Health: 'operations.md#health-and-readiness',
  Reference: 'api.md',
};

/** The order groups are listed in: a reader's order, not the alphabet's; tags not named here come last, by name. */
const TAG_ORDER = Object.keys(TAG_GUIDES);

const METHOD_ORDER: readonly HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete', 'head', 'options', 'trace'];

interface Route {
  method: HttpMethod;
  path: string;
  op: OperationObject;
}

function routesOf(document: OpenApiDocument): Route[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHOD_ORDER.flatMap((method) => {
      const op = item[method];
      return op ? [{ method, path, op }] : [];
    }),
  );
}

const isPublic = (op: OperationObject): boolean => op.security.length === 0;

function access(op: OperationObject): string {
  if (isPublic(op)) return 'public';
  const scopes = op['x-required-scopes'] ?? (op['x-required-scope'] ? [op['x-required-scope']] : []);
  return scopes.length === 0 ? 'any key' : scopes.map((s) => `\`${s}\``).join(' + ');
}

const cell = (text: string): string => text.replace(/\r?\n/g, ' ').replace(/(?<!\\)\|/g, '\\|');

function whatItDoes(op: OperationObject): string {
  const query = (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => `\`${p.name}\``);
  const conditional = (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'If-Match');
  return cell(
    [op.summary.replace(/\.$/, ''), query.length > 0 ? `query: ${query.join(', ')}` : '', conditional ? 'takes `If-Match`' : '']
      .filter(Boolean)
      .join('; '),
  );
}

const row = (route: Route, withAccess: boolean): string =>
  `| ${route.method.toUpperCase()} | \`${route.path}\` |${withAccess ? ` ${access(route.op)} |` : ''} ${whatItDoes(route.op)} |`;

const count = (n: number): string => `${n} route${n === 1 ? '' : 's'}.`;

function tagRank(tag: string): [number, string] {
  const index = TAG_ORDER.indexOf(tag);
  return [index === -1 ? TAG_ORDER.length : index, tag];
}

/** Markdown: the routes that need no API key, then every route by group, each group with its guide. */
export function routeListMarkdown(document: OpenApiDocument): string {
  const routes = routesOf(document);
  const lines: string[] = [];
  const publicRoutes = routes.filter((r) => isPublic(r.op));
  lines.push('### Routes without an API key', '', count(publicRoutes.length), '', '| Method | Path | What it does |', '|---|---|---|');
  for (const route of publicRoutes) lines.push(row(route, false));

  const tags = [...new Set(routes.map((r) => r.op.tags[0] ?? 'Other'))].sort((a, b) => {
    const [ra, na] = tagRank(a);
    const [rb, nb] = tagRank(b);
    return ra - rb || na.localeCompare(nb);
  });
  lines.push('', '### Every route, by area', '', count(routes.length));
  for (const tag of tags) {
    const guide = TAG_GUIDES[tag];
    lines.push('', `#### ${tag}`, '');
    if (guide) lines.push(`Guide: [${guide.replace(/#.*/, '')}](${guide})`, '');
    lines.push('| Method | Path | Access | What it does |', '|---|---|---|---|');
    for (const route of routes.filter((r) => (r.op.tags[0] ?? 'Other') === tag)) lines.push(row(route, true));
  }
  return lines.join('\n');
}
