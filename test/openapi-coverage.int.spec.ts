// The OpenAPI document against the routes Fastify really serves, in-process: every route is
// described (a route without @ApiOperation fails here), every request part a route reads is
// validated by its @ApiOperation, every success status is the one Nest answers, and every example
// parses with the zod schema it illustrates.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Body, Controller, Get, Module, Param, Post, Query } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';

import {
  ApiOperation,
  type DiscoveredRoute,
  ERROR_CATALOG,
  errorBodySchema,
  errorCodesOf,
  loadConfig,
  type OpenApiDocument,
  OpenApiModule,
  OpenApiService,
  Public,
  RouteCatalog,
} from '@app/platform';

import { createApp } from '../apps/api/src/bootstrap';

/** Fastify's automatic HEAD twin of every GET, and CORS preflights, are protocol, not operations. */
const PROTOCOL_METHODS = new Set(['HEAD', 'OPTIONS']);

interface ServedRoute {
  method: string;
  path: string;
}

/** Records every route as Fastify registers it; call before `app.init()`, which registers them. */
function recordRoutes(app: NestFastifyApplication): ServedRoute[] {
  const served: ServedRoute[] = [];
  app.getHttpAdapter().getInstance().addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) served.push({ method, path: route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}') });
  });
  return served;
}

/** Served routes the document lacks, and documented operations nothing serves. */
function coverageGaps(served: readonly ServedRoute[], document: OpenApiDocument): { undocumented: string[]; unserved: string[] } {
  const operations = served.filter((route) => !PROTOCOL_METHODS.has(route.method));
  const servedKeys = new Set(operations.map((r) => `${r.method.toUpperCase()} ${r.path}`));
  const documentedKeys = new Set(
    Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`)),
  );
  return {
    undocumented: [...servedKeys].filter((key) => !documentedKeys.has(key)),
    unserved: [...documentedKeys].filter((key) => !servedKeys.has(key)),
  };
}

/**
 * Routes taking a request part (@Body(), @Query(), @Param()) that their @ApiOperation has no
 * schema for: @ApiOperation validates what a route takes with its `body`, `query` and `params`.
 */
function unvalidatedParts(routes: readonly DiscoveredRoute[]): string[] {
  return routes.flatMap(({ handler, spec, reads }) =>
    reads.flatMap(({ part, field }) => {
      if (field !== undefined) return [`${handler} takes the ${part} field "${field}" alone; take the whole ${part}`];
      return spec?.[part] ? [] : [`${handler} takes the ${part} but its @ApiOperation has no \`${part}\` schema`];
    }),
  );
}

describe('OpenAPI route coverage (in-process)', () => {
  let dir: string;
  let app: NestFastifyApplication;
  let openApi: OpenApiService;
  let document: OpenApiDocument;
  let served: ServedRoute[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cc-openapi-'));
    app = await createApp(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', RUN_WORKERS: 'false' }));
    served = recordRoutes(app);
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    openApi = app.get(OpenApiService);
    document = openApi.document();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('describes every route Fastify serves, and nothing else', () => {
    expect(served.filter((route) => !PROTOCOL_METHODS.has(route.method)).length).toBeGreaterThan(5);
    expect(coverageGaps(served, document)).toEqual({ undocumented: [], unserved: [] });
  });

  it('finds no controller route without @ApiOperation', () => {
    expect(openApi.undocumentedRoutes().map((r) => r.handler)).toEqual([]);
  });

  it('validates every request part a route takes with a schema of its @ApiOperation', () => {
    const routes = app.get(RouteCatalog).routes();
    expect(routes.flatMap((r) => r.reads).length).toBeGreaterThan(20);
    expect(routes.find((r) => r.handler === 'BuyerRequestsController.update')?.reads).toEqual(
      expect.arrayContaining([{ part: 'params' }, { part: 'body' }]),
    );
    expect(unvalidatedParts(routes)).toEqual([]);
  });

  it('gives every authenticated POST route Idempotency-Key handling (@Idempotent)', () => {
    const posts = app
      .get(RouteCatalog)
      .routes()
      .filter((r) => r.method === 'post' && !r.isPublic);
    expect(posts.length).toBeGreaterThanOrEqual(2);
    expect(posts.filter((r) => !r.idempotent).map((r) => r.handler)).toEqual([]);
    for (const post of posts) {
      expect(document.paths[post.path]?.post?.parameters?.map((p) => p.name)).toContain('Idempotency-Key');
    }
  });

  it('parses every example with the zod schema it illustrates', () => {
    const failures: string[] = [];
    const check = (what: string, result: { success: boolean; error?: { message: string } }): void => {
      if (!result.success) failures.push(`${what}: ${result.error?.message ?? ''}`);
    };
    for (const { spec } of openApi.documentedRoutes()) {
      if (spec.body && spec.bodyExample !== undefined) check(`${spec.operationId} body`, spec.body.safeParse(spec.bodyExample));
      for (const [status, response] of Object.entries(spec.responses)) {
        if (response.schema && response.example !== undefined) {
          check(`${spec.operationId} ${status}`, response.schema.safeParse(response.example));
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('has a body example for every body and an example for every JSON success response', () => {
    const lacking: string[] = [];
    for (const route of openApi.documentedRoutes()) {
      const { spec } = route;
      if (spec.body && spec.bodyExample === undefined) lacking.push(`${spec.operationId} body`);
      for (const [status, response] of Object.entries(spec.responses)) {
        const json = (response.contentType ?? 'application/json') === 'application/json';
        // The document itself is its own example.
        if (json && response.schema && response.example === undefined && spec.operationId !== 'getOpenApiDocument') {
          lacking.push(`${spec.operationId} ${status}`);
        }
      }
    }
    expect(lacking).toEqual([]);
  });

  it('knows every error code a route names, and each example has the error shape and its code', () => {
    for (const route of openApi.documentedRoutes()) {
      for (const code of errorCodesOf(route)) expect(Object.keys(ERROR_CATALOG)).toContain(code);
    }
    for (const [code, spec] of Object.entries(ERROR_CATALOG)) {
      expect(errorBodySchema.safeParse(spec.example).success).toBe(true);
      expect(spec.example.code).toBe(code);
    }
  });
});

// The checks above, shown to bite: an app with one route lacking @ApiOperation and one taking
// request parts its @ApiOperation does not validate.
@Controller('api/v1/probe')
class ProbeController {
  @Get()
  @Public()
  @ApiOperation({ operationId: 'probe', summary: 'Documented', tags: ['Probe'], responses: { 200: { description: 'ok' } } })
  documented(): Record<string, never> {
    return {};
  }

  @Post('forgotten')
  @Public()
  forgotten(): Record<string, never> {
    return {};
  }

  @Post('unchecked/:id')
  @Public()
  @ApiOperation({ operationId: 'probeUnchecked', summary: 'Takes what it does not validate', tags: ['Probe'], responses: { 201: { description: 'ok' } } })
  unchecked(@Body() body: unknown, @Query() query: unknown, @Param('id') id: string): unknown[] {
    return [body, query, id];
  }
}

@Module({ imports: [OpenApiModule], controllers: [ProbeController] })
class ProbeModule {}

describe('OpenAPI route coverage check', () => {
  it('reports a served route without @ApiOperation, and request parts no schema validates', async () => {
    const app = await NestFactory.create<NestFastifyApplication>(ProbeModule, new FastifyAdapter(), { logger: false });
    const served = recordRoutes(app);
    await app.init();
    try {
      const openApi = app.get(OpenApiService);
      expect(coverageGaps(served, openApi.document())).toEqual({ undocumented: ['POST /api/v1/probe/forgotten'], unserved: [] });
      expect(openApi.undocumentedRoutes().map((r) => r.handler)).toEqual(['ProbeController.forgotten']);
      expect(unvalidatedParts(app.get(RouteCatalog).routes()).sort()).toEqual([
        'ProbeController.unchecked takes the body but its @ApiOperation has no `body` schema',
        'ProbeController.unchecked takes the params field "id" alone; take the whole params',
        'ProbeController.unchecked takes the query but its @ApiOperation has no `query` schema',
      ]);
    } finally {
      await app.close();
    }
  });
});
