import type { OpenApiDocument, OperationObject } from './openapi-types';
import { routeListMarkdown, TAG_GUIDES } from './route-list';

const op = (summary: string, tags: string[], extra: Partial<OperationObject> = {}): OperationObject => ({
  operationId: summary.replace(/\W/g, ''),
  summary,
  description: '',
  tags,
  security: [{ bearerAuth: [] }],
  responses: {},
  ...extra,
});

const document = {
  paths: {
    '/api/v1/health': { get: op('Liveness: the process answers', ['Health'], { security: [] }) },
    '/api/v1/trades/{id}/transitions': {
      post: op('Move a trade to its next status.', ['Trades'], {
        'x-required-scope': 'write:trades',
        parameters: [
          { name: 'id', in: 'path', required: true, schema: {} },
          { name: 'If-Match', in: 'header', required: false, schema: {} },
        ],
      }),
    },
    '/api/v1/trades': {
      post: op('Open a trade', ['Trades'], { 'x-required-scope': 'write:trades' }),
      get: op('List trades | newest first', ['Trades'], {
        'x-required-scope': 'read:trades',
        parameters: [
          { name: 'limit', in: 'query', required: false, schema: {} },
          { name: 'status', in: 'query', required: false, schema: {} },
        ],
      }),
    },
    '/api/v1/tradegraph/pricing': {
      get: op('Price bands', ['Tradegraph'], { 'x-required-scope': 'read:trades', 'x-required-scopes': ['read:trades', 'read:inventory'] }),
    },
    '/api/v1/zeta': { get: op('A route of a tag with no guide', ['Zeta']) },
  },
} as unknown as OpenApiDocument;

describe('routeListMarkdown (docs/routes.md)', () => {
  const markdown = routeListMarkdown(document);

  it('lists the routes without an API key first, then every route by area in the reading order, each area with its guide', () => {
    expect(markdown.split('\n')).toEqual([
      '### Routes without an API key',
      '',
      '1 route.',
      '',
      '| Method | Path | What it does |',
      '|---|---|---|',
      '| GET | `/api/v1/health` | Liveness: the process answers |',
      '',
      '### Every route, by area',
      '',
      '6 routes.',
      '',
      '#### Trades',
      '',
      'Guide: [trading.md](trading.md)',
      '',
      '| Method | Path | Access | What it does |',
      '|---|---|---|---|',
      '| POST | `/api/v1/trades/{id}/transitions` | `write:trades` | Move a trade to its next status; takes `If-Match` |',
      '| GET | `/api/v1/trades` | `read:trades` | List trades \\| newest first; query: `limit`, `status` |',
      '| POST | `/api/v1/trades` | `write:trades` | Open a trade |',
      '',
      '#### Tradegraph',
      '',
      'Guide: [tradegraph.md](tradegraph.md)',
      '',
      '| Method | Path | Access | What it does |',
      '|---|---|---|---|',
      '| GET | `/api/v1/tradegraph/pricing` | `read:trades` + `read:inventory` | Price bands |',
      '',
      '#### Health',
      '',
      'Guide: [operations.md](operations.md#health-and-readiness)',
      '',
      '| Method | Path | Access | What it does |',
      '|---|---|---|---|',
      '| GET | `/api/v1/health` | public | Liveness: the process answers |',
      '',
      '#### Zeta',
      '',
      '| Method | Path | Access | What it does |',
      '|---|---|---|---|',
      '| GET | `/api/v1/zeta` | any key | A route of a tag with no guide |',
    ]);
  });

  it('links every area to a page of docs/', () => {
    for (const guide of Object.values(TAG_GUIDES)) expect(guide).toMatch(/^[a-z-]+\.md(#[a-z0-9-]+)?$/);
  });
});
