// Every route of every controller, read from the same Nest metadata the router uses (path, method,
// status code, parameters) plus @ApiOperation, @RequireScope and @Public, so the document cannot
// describe a route differently from how it is served.
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { Injectable, RequestMethod } from '@nestjs/common';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';

import { PUBLIC_ROUTE, REQUIRED_SCOPE, REQUIRED_SCOPES, type Scope } from '../http/scopes';
import { IDEMPOTENT_ROUTE } from '../idempotency/idempotent.decorator';
import { API_OPERATION, type ApiOperationSpec } from './api-operation';
import type { HttpMethod } from './openapi-types';

export interface DiscoveredRoute {
  method: HttpMethod;
  /** OpenAPI form: `:id` written `{id}`. */
  path: string;
  /** Undefined when the route has no @ApiOperation: it is then missing from the document. */
  spec?: ApiOperationSpec;
  /** The first required scope (`x-required-scope`). */
  scope?: Scope;
  /** Every required scope, all needed (`x-required-scopes` when more than one). */
  scopes: Scope[];
  isPublic: boolean;
  /** Honours `Idempotency-Key` (@Idempotent). */
  idempotent: boolean;
  /** The status Nest answers on success (@HttpCode, else 201 for POST and 200 otherwise). */
  successStatus: number;
  /** `Controller.method`, for messages. */
  handler: string;
  /** The request parts the handler takes with @Body(), @Query() and @Param(), which `spec` must validate. */
  reads: RequestPartRead[];
}

/** A request part a handler takes: `field` when it takes one field of it (`@Param('id')`). */
export interface RequestPartRead {
  part: 'body' | 'query' | 'params';
  field?: string;
}

/** The schema of ApiOperationSpec that validates each parameter type. */
const PARTS: Partial<Record<RouteParamtypes, RequestPartRead['part']>> = {
  [RouteParamtypes.BODY]: 'body',
  [RouteParamtypes.QUERY]: 'query',
  [RouteParamtypes.PARAM]: 'params',
};

const METHODS: Partial<Record<RequestMethod, HttpMethod>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.DELETE]: 'delete',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.OPTIONS]: 'options',
  [RequestMethod.HEAD]: 'head',
};

@Injectable()
export class RouteCatalog {
  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  routes(): DiscoveredRoute[] {
    const routes: DiscoveredRoute[] = [];
    for (const wrapper of this.discovery.getControllers()) {
      const controller = wrapper.metatype;
      if (typeof controller !== 'function') continue;
      const prototype: unknown = controller.prototype;
      if (prototype === null || typeof prototype !== 'object') continue;
      const bases = asList(this.reflector.get<string | string[] | undefined>(PATH_METADATA, controller));
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const handler: unknown = Reflect.get(prototype, name);
        if (typeof handler !== 'function') continue;
        const subPaths = this.reflector.get<string | string[] | undefined>(PATH_METADATA, handler);
        if (subPaths === undefined) continue; // a helper method, not a route
        const requestMethod = this.reflector.get<RequestMethod>(METHOD_METADATA, handler);
        const method = METHODS[requestMethod];
        if (!method) throw new Error(`${controller.name}.${name}: RequestMethod ${RequestMethod[requestMethod]} cannot be documented`);
        const targets = [handler, controller];
        const common = {
          method,
          spec: this.reflector.get<ApiOperationSpec | undefined>(API_OPERATION, handler),
          scope: this.reflector.getAllAndOverride<Scope | undefined>(REQUIRED_SCOPE, targets),
          scopes: this.reflector.getAllAndOverride<Scope[] | undefined>(REQUIRED_SCOPES, targets) ?? [],
          isPublic: this.reflector.getAllAndOverride<boolean | undefined>(PUBLIC_ROUTE, targets) === true,
          idempotent: this.reflector.get<boolean | undefined>(IDEMPOTENT_ROUTE, handler) === true,
          successStatus:
            this.reflector.get<number | undefined>(HTTP_CODE_METADATA, handler) ?? (method === 'post' ? 201 : 200),
          handler: `${controller.name}.${name}`,
          reads: partsRead(controller, name),
        };
        for (const base of bases) {
          for (const sub of asList(subPaths)) routes.push({ ...common, path: openApiPath(base, sub) });
        }
      }
    }
    return routes;
  }
}

/** From the parameter metadata Nest keeps per handler: `{ "3:1": { index: 1, data: undefined } }` is @Body() as 2nd argument. */
function partsRead(controller: object, name: string): RequestPartRead[] {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { data?: unknown }>;
  const reads: RequestPartRead[] = [];
  for (const [key, { data }] of Object.entries(args)) {
    const part = PARTS[Number(key.split(':')[0]) as RouteParamtypes];
    if (part) reads.push(data === undefined ? { part } : { part, field: String(data) });
  }
  return reads;
}

function asList(value: string | string[] | undefined): string[] {
  if (value === undefined) return ['/'];
  return Array.isArray(value) ? value : [value];
}

/** `api/v1/things` + `:id` → `/api/v1/things/{id}`, the way Nest joins them for Fastify. */
export function openApiPath(base: string, sub: string): string {
  const joined = [base, sub]
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment.length > 0)
    .join('/');
  return `/${joined}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
