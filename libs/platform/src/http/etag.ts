// ETag and If-Match over HTTP: a resource's answers carry its version (its stream's revision) as a
// weak ETag, and a write may name the version it was decided on with `If-Match`
// (PreconditionFailedError → 412 when the resource has moved on). Weak, and compared as such:
// an answer also shows data of other resources (a trade's buyer), so equal versions need not be
// byte-equal answers, yet the version is exactly what a conditional write needs.
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { etagOf } from '../domain/precondition';
import { ApiError } from './api-error';

const ETAG = /^\s*(?:W\/)?"(\d{1,15})"\s*$/;

/** The revision an `If-Match` header names; undefined without one (or `*`: any version). */
export function parseIfMatch(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const value = Array.isArray(header) ? header.join(', ') : header;
  if (value.trim() === '*') return undefined;
  const match = ETAG.exec(value);
  if (!match) {
    throw ApiError.validation('If-Match must be one ETag this API answered, such as W/"3"', [
      { path: 'If-Match', message: 'expected one ETag, W/"<version>"' },
    ]);
  }
  return Number(match[1]);
}

/** The revision the request's `If-Match` names (a 400 when it names none this API gives). */
export const IfMatch = createParamDecorator((_data: unknown, context: ExecutionContext): number | undefined =>
  parseIfMatch(context.switchToHttp().getRequest<FastifyRequest>().headers['if-match']),
);

/** Says the answered resource's version. */
export function setETag(reply: FastifyReply, revision: number): void {
  void reply.header('etag', etagOf(revision));
}
