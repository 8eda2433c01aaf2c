// GET /api/v1/openapi.json (the document), GET /docs (Swagger UI) and its assets; all public.
import { Controller, Get, Header, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

import { ApiError } from '../http/api-error';
import { Public } from '../http/scopes';
import { ApiOperation } from './api-operation';
import { DOCS_ASSET_NAMES, DOCS_HTML, DocsAssets } from './docs-page';
import type { OpenApiDocument } from './openapi-types';
import { OpenApiService } from './openapi.service';

export const openApiDocumentResponse = z
  .looseObject({
    openapi: z.literal('3.1.0'),
    info: z.looseObject({ title: z.string(), version: z.string(), description: z.string() }),
    paths: z.record(z.string(), z.record(z.string(), z.unknown())),
    components: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'OpenApiDocument', description: 'This document (OpenAPI 3.1).' });

export const docsAssetParams = z.object({
  file: z
    .string()
    .min(1)
    .max(100)
    .meta({ description: `An asset of the docs page: ${DOCS_ASSET_NAMES.join(', ')}.`, examples: ['swagger-ui.css'] }),
});

const TAGS = ['Reference'];

@Controller()
export class OpenApiController {
  private readonly assets = new DocsAssets();

  constructor(private readonly openApi: OpenApiService) {}

  @Get('api/v1/openapi.json')
  @Public()
  @Header('Cache-Control', 'no-cache')
  @ApiOperation({
    operationId: 'getOpenApiDocument',
    summary: 'This API described in OpenAPI 3.1',
    description: 'Every route, scope, error code and example, generated from the zod schemas that validate requests.',
    tags: TAGS,
    responses: { 200: { description: 'The OpenAPI document', schema: openApiDocumentResponse } },
  })
  document(): OpenApiDocument {
    return this.openApi.document();
  }

  @Get('docs')
  @Public()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-cache')
  @ApiOperation({
    operationId: 'getDocsPage',
    summary: 'Readable API reference (Swagger UI)',
    description: 'An HTML page rendering this document; its scripts and styles come from this server only.',
    tags: TAGS,
    responses: { 200: { description: 'The HTML page', schema: z.string(), contentType: 'text/html' } },
  })
  page(): string {
    return DOCS_HTML;
  }

  @Get('docs/assets/:file')
  @Public()
  @ApiOperation({
    operationId: 'getDocsAsset',
    summary: 'A script, stylesheet or icon of the docs page',
    tags: TAGS,
    params: docsAssetParams,
    responses: { 200: { description: 'The file, as CSS, JavaScript or PNG' } },
  })
  async asset(
    @Param() params: z.output<typeof docsAssetParams>,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const asset = this.assets.get(params.file);
    if (!asset) throw ApiError.notFound('docs asset', params.file);
    const { contentType, body } = await asset;
    void reply.header('Content-Type', contentType).header('Cache-Control', 'public, max-age=3600');
    return body;
  }
}
