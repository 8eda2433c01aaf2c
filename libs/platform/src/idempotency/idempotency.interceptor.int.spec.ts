// The interceptor inside a real Nest + Fastify pipeline (guard, pipes, exception filter), with
// routes that do what buyer requests cannot be made to do on demand: fail with a 5xx, lose a
// concurrency race, stay in flight, answer 202 or 204, set a Location header.
import 'reflect-metadata';

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Body, type CanActivate, Controller, type ExecutionContext, HttpCode, Injectable, Module, Post, Res } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { DomainError } from '../domain/domain-error';
import { WrongExpectedRevisionError } from '../event-store/event-store.port';
import { ApiError } from '../http/api-error';
import { ApiExceptionFilter } from '../http/error.filter';
import { Public, PUBLIC_ROUTE } from '../http/scopes';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyStore } from './idempotency.store';

const WAIT_MS = 300;
const calls = new Map<string, number>();
const call = (route: string): number => {
  const n = (calls.get(route) ?? 0) + 1;
  calls.set(route, n);
  return n;
};
let gate: Promise<void> = Promise.resolve();

@Controller('t')
class TestController {
  @Post('accepted')
  @HttpCode(202)
  accepted(@Body() body: unknown): { n: number; body: unknown; at: Date } {
    return { n: call('accepted'), body, at: new Date(0) };
  }

  @Post('located')
  located(@Res({ passthrough: true }) reply: FastifyReply): { n: number } {
    void reply.header('location', '/t/thing-1');
    return { n: call('located') };
  }

  @Post('empty')
  @HttpCode(204)
  empty(): void {
    call('empty');
  }

  @Post('flaky')
  flaky(): { n: number } {
    const n = call('flaky');
    if (n === 1) throw new Error('database on fire');
    return { n };
  }

  @Post('raced')
  raced(): { n: number } {
    const n = call('raced');
    if (n === 1) throw new WrongExpectedRevisionError('thing-1', 3, 4);
    return { n };
  }

  @Post('refused')
  refused(): never {
    throw new DomainError('INVALID_TRANSITION', `refused #${call('refused')}`, { state: 'closed' });
  }

  @Post('slow')
  async slow(): Promise<{ n: number }> {
    const n = call('slow');
    await gate;
    return { n };
  }

  @Post('public')
  @Public()
  open(): { n: number } {
    return { n: call('public') };
  }
}

/** Stands in for the API-key guard: the workspace comes from a header. */
@Injectable()
class TestAuthGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const workspace = request.headers['x-workspace'];
    if (typeof workspace !== 'string') throw new ApiError(401, 'UNAUTHORIZED', 'no workspace');
    request.auth = { workspaceId: workspace, keyId: 'key_1', scopes: ['admin'] };
    return true;
  }
}

describe('IdempotencyInterceptor (Nest + Fastify)', () => {
  let dir: string;
  let reads: SqliteReadStore;
  let app: NestFastifyApplication;
  let counter = 0;

  const post = (path: string, options: { key?: string; body?: unknown; workspace?: string; requestId?: string } = {}) =>
    app.inject({
      method: 'POST',
      url: `/t/${path}`,
      headers: {
        'x-workspace': options.workspace ?? 'ws_A',
        ...(options.requestId === undefined ? {} : { 'x-request-id': options.requestId }),
        ...(options.key === undefined ? {} : { 'idempotency-key': options.key }),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      payload: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  const freshKey = (): string => `key-${(counter += 1)}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cc-idem-http-'));
    reads = new SqliteReadStore(join(dir, 'read.db'));
    const store = new IdempotencyStore(reads, { now: () => new Date() }, { ttlMs: 86_400_000, leaseMs: 60_000, waitMs: WAIT_MS, pollMs: 10 });

    @Module({
      controllers: [TestController],
      providers: [
        { provide: IdempotencyStore, useValue: store },
        { provide: APP_GUARD, useClass: TestAuthGuard },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        { provide: APP_INTERCEPTOR, useClass: IdempotencyInterceptor },
      ],
    })
    class TestModule {}

    app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter({ requestIdHeader: 'x-request-id' }), { logger: false });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
  });

  afterAll(async () => {
    await app.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => calls.clear());

  it('replays the route\'s own status (@HttpCode 202) and body, marked as a replay, without a second call', async () => {
    const key = freshKey();
    const first = await post('accepted', { key, body: { a: 1 }, requestId: 'req-original' });
    const again = await post('accepted', { key, body: { a: 1 }, requestId: 'req-retry' });
    expect(first.statusCode).toBe(202);
    expect(first.json()).toEqual({ n: 1, body: { a: 1 }, at: '1970-01-01T00:00:00.000Z' });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(again.statusCode).toBe(202);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['original-request']).toBe('req-original');
    expect(calls.get('accepted')).toBe(1);
  });

  it('leaves requests without the header alone', async () => {
    const first = await post('accepted', { body: { a: 1 } });
    const second = await post('accepted', { body: { a: 1 } });
    expect([first.json(), second.json()]).toMatchObject([{ n: 1 }, { n: 2 }]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays the Location header and an empty 204', async () => {
    const key = freshKey();
    await post('located', { key });
    const located = await post('located', { key });
    expect(located.statusCode).toBe(201);
    expect(located.headers.location).toBe('/t/thing-1');
    expect(located.json()).toEqual({ n: 1 });

    const emptyKey = freshKey();
    await post('empty', { key: emptyKey });
    const empty = await post('empty', { key: emptyKey });
    expect(empty.statusCode).toBe(204);
    expect(empty.body).toBe('');
    expect(empty.headers['idempotent-replayed']).toBe('true');
    expect(calls.get('located')).toBe(1);
    expect(calls.get('empty')).toBe(1);
  });

  it('stores a 4xx error answer and replays exactly its status and body', async () => {
    const key = freshKey();
    const first = await post('refused', { key });
    const again = await post('refused', { key });
    expect(first.statusCode).toBe(409);
    expect(first.json()).toEqual({ code: 'INVALID_TRANSITION', message: 'refused #1', details: { state: 'closed' } });
    expect(again.statusCode).toBe(409);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(calls.get('refused')).toBe(1);
  });

  it('does not pin the key on a 5xx: the retry runs, and its answer is the one kept', async () => {
    const key = freshKey();
    const failed = await post('flaky', { key });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({ code: 'INTERNAL', message: 'An internal error occurred' });
    const retried = await post('flaky', { key });
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toEqual({ n: 2 });
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
    const replayed = await post('flaky', { key });
    expect(replayed.json()).toEqual({ n: 2 });
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(calls.get('flaky')).toBe(2);
  });

  it('does not pin the key on a lost concurrency race (409 CONFLICT says "retry")', async () => {
    const key = freshKey();
    expect((await post('raced', { key })).json()).toMatchObject({ code: 'CONFLICT' });
    const retried = await post('raced', { key });
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toEqual({ n: 2 });
  });

  it('answers 422 IDEMPOTENCY_KEY_REUSED for the key on another path or body, without calling the handler', async () => {
    const key = freshKey();
    await post('accepted', { key, body: { a: 1 } });
    for (const [path, body] of [['accepted', { a: 2 }], ['located', undefined]] as const) {
      const reused = await post(path, { key, body });
      expect(reused.statusCode).toBe(422);
      expect(reused.json()).toEqual({ code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringContaining('different request') });
    }
    expect(calls.get('accepted')).toBe(1);
    expect(calls.get('located')).toBeUndefined();
  });

  describe('while the first request is in flight', () => {
    let release: () => void = () => undefined;
    beforeEach(() => {
      gate = new Promise((resolve) => (release = resolve));
    });
    afterEach(() => release());

    it('a retry waits for it and replays its answer', async () => {
      const key = freshKey();
      const first = post('slow', { key });
      await new Promise((resolve) => setTimeout(resolve, 30));
      const second = post('slow', { key });
      setTimeout(() => release(), WAIT_MS / 3);
      const [a, b] = await Promise.all([first, second]);
      expect(a.json()).toEqual({ n: 1 });
      expect(b.statusCode).toBe(201);
      expect(b.body).toBe(a.body);
      expect(b.headers['idempotent-replayed']).toBe('true');
      expect(calls.get('slow')).toBe(1);
    });

    it('a retry gets 409 IDEMPOTENCY_KEY_IN_USE once the bounded wait is over', async () => {
      const key = freshKey();
      const first = post('slow', { key });
      await new Promise((resolve) => setTimeout(resolve, 30));
      const second = await post('slow', { key });
      expect(second.statusCode).toBe(409);
      expect(second.json()).toEqual({ code: 'IDEMPOTENCY_KEY_IN_USE', message: expect.any(String) });
      expect(second.headers['retry-after']).toBe('1');
      release();
      expect((await first).json()).toEqual({ n: 1 });
      expect((await post('slow', { key })).json()).toEqual({ n: 1 });
      expect(calls.get('slow')).toBe(1);
    });
  });

  it('answers 400 for an invalid key before calling the handler', async () => {
    const res = await post('accepted', { key: 'x'.repeat(256), body: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: 'Idempotency-Key' }] } });
    expect(calls.get('accepted')).toBeUndefined();
  });

  it('ignores the header on public routes (no workspace to scope it to)', async () => {
    const key = freshKey();
    await post('public', { key });
    const second = await post('public', { key });
    expect(second.json()).toEqual({ n: 2 });
    expect((await post('public', { key: '' })).statusCode).toBe(201);
  });
});
