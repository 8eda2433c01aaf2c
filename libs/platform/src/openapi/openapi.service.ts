// The served OpenAPI document: built once from the discovered routes, on first use (after every
// module has registered its controllers).
import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';

import { buildOpenApiDocument, type DocumentedRoute } from './openapi-document';
import type { OpenApiDocument } from './openapi-types';
import { type DiscoveredRoute, RouteCatalog } from './route-catalog';

@Injectable()
export class OpenApiService implements OnApplicationBootstrap {
  private readonly logger = new Logger('openapi');
  private cached?: OpenApiDocument;

  constructor(private readonly catalog: RouteCatalog) {}

  /** Says at start which routes the document misses; the route-coverage test fails on them too. */
  onApplicationBootstrap(): void {
    const missing = this.undocumentedRoutes();
    if (missing.length > 0) {
      this.logger.warn(
        `routes without @ApiOperation are missing from the OpenAPI document: ${missing.map((r) => `${r.method.toUpperCase()} ${r.path} (${r.handler})`).join(', ')}`,
      );
    }
  }

  document(): OpenApiDocument {
    this.cached ??= buildOpenApiDocument(this.documentedRoutes());
    return this.cached;
  }

  documentedRoutes(): DocumentedRoute[] {
    const documented: DocumentedRoute[] = [];
    for (const route of this.catalog.routes()) {
      const { spec } = route;
      if (!spec) continue;
      // A route answering a status its metadata does not describe would make the document lie.
      if (!(route.successStatus in spec.responses)) {
        throw new Error(
          `OpenAPI: ${route.handler} answers ${route.successStatus} but @ApiOperation describes ${Object.keys(spec.responses).join(', ')}`,
        );
      }
      documented.push({
        method: route.method,
        path: route.path,
        spec,
        scope: route.scope,
        scopes: route.scopes,
        isPublic: route.isPublic,
        idempotent: route.idempotent,
      });
    }
    return documented;
  }

  undocumentedRoutes(): DiscoveredRoute[] {
    return this.catalog.routes().filter((route) => !route.spec);
  }
}
