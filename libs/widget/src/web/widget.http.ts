// GET /widget.js: the want-list widget's script, public and cacheable. Its ETag is a hash of the
// bytes served (with the format's version), so a new widget is a new ETag; a browser revalidates
// after five minutes and gets a 304 while it has not changed. Loaded by other sites' pages, so
// `Cross-Origin-Resource-Policy: cross-origin`.
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';

import { Controller, Get, Headers, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

import { ApiOperation, Public } from '@app/platform';

import { WIDGET_SCRIPT } from './widget.script';

/** Bumped when the widget's contract (its attributes, the routes it calls) changes. */
export const WIDGET_VERSION = 2;
export const WIDGET_ETAG = `"w${WIDGET_VERSION}-${createHash('sha256').update(WIDGET_SCRIPT).digest('base64url').slice(0, 22)}"`;
export const WIDGET_CACHE_CONTROL = 'public, max-age=300, stale-while-revalidate=86400';
/** The widget's budget, gzipped. */
export const WIDGET_MAX_GZIP_BYTES = 15 * 1024;
export const widgetGzipBytes = (): number => gzipSync(WIDGET_SCRIPT, { level: 9 }).length;

@Controller()
export class WidgetScriptController {
  @Get('widget.js')
  @Public()
  @ApiOperation({
    operationId: 'getWidgetScript',
    summary: 'The want-list widget script (public)',
    description:
      'Embed with `<script src="{base_url}/widget.js" data-seller="<seller slug>" data-theme="light|dark|auto" async></script>` ' +
      '(optional `data-currency`, default USD). Before it shows the form it asks `GET /api/v1/public/sellers/{slug}/widget`: for a wrong `data-seller`, or on a page of an origin ' +
      'the seller did not allow, buyers see a short notice instead, and the browser console says what to fix. Dependency-free, under 15 KB gzipped; ETag with its version and content hash, `304` on `If-None-Match`.',
    tags: ['Widget (public)'],
    headers: ['If-None-Match'],
    responses: { 200: { description: 'The script', schema: z.string(), contentType: 'text/javascript' }, 304: { description: 'Not modified' } },
  })
  script(@Headers('if-none-match') ifNoneMatch: string | undefined, @Res({ passthrough: true }) reply: FastifyReply): string {
    void reply
      .header('Content-Type', 'text/javascript; charset=utf-8')
      .header('Cache-Control', WIDGET_CACHE_CONTROL)
      .header('ETag', WIDGET_ETAG)
      .header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === WIDGET_ETAG || tag.trim() === '*')) {
      void reply.status(304);
      return '';
    }
    return WIDGET_SCRIPT;
  }
}
