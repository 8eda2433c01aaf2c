// @Idempotent({ sensitive: true }) inside a real Nest + Fastify pipeline: an answer holding a
// secret shown once is stored sealed (never in clear, not even in the SQLite file), replays
// byte-identical, cannot be moved to another record, and answers 409 IDEMPOTENCY_REPLAY_UNAVAILABLE
// once the key that sealed it is gone.
import 'reflect-metadata';

import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Body, type CanActivate, Controller, type ExecutionContext, HttpCode, Injectable, Logger, Module, Post, type Provider } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, NestFactory, Reflector } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';

import { SECRET_BOX, SecretBox } from '../crypto/secret-box';
import { DomainError } from '../domain/domain-error';
import { ApiError } from '../http/api-error';
import { ApiExceptionFilter } from '../http/error.filter';
import { SqliteReadStore } from '../read-store/sqlite-read-store';
import { idempotencyRecordId } from './idempotency-key';
import { IDEMPOTENCY_KEYS, type IdempotencyRecord, IdempotencyStore } from './idempotency.store';
import { IDEMPOTENT_OPTIONS, IDEMPOTENT_ROUTE, Idempotent } from './idempotent.decorator';

const calls = new Map<string, number>();
const call = (route: string): number => {
  const n = (calls.get(route) ?? 0) + 1;
  calls.set(route, n);
  return n;
};
/** Every secret a handler handed out, to look for in what was stored. */
const secretsIssued: string[] = [];
const newSecret = (): string => {
  const secret = `sk_${randomBytes(24).toString('hex')}`;
  secretsIssued.push(secret);
  return secret;
};

@Controller('t')
class SecretsController {
  @Post('keys')
  @HttpCode(201)
  @Idempotent({ sensitive: true })
  createKey(@Body() body: { name: string }): { id: string; name: string; secret: string } {
    return { id: `key_${call('keys')}`, name: body.name, secret: newSecret() };
  }

  @Post('refused-secret')
  @Idempotent({ sensitive: true })
  refuse(): never {
    throw new DomainError('INVALID_TRANSITION', `refused #${call('refused-secret')}`, { hint: 'clé 🔑' });
  }

  @Post('plain')
  @Idempotent()
  plain(): { n: number; note: string } {
    return { n: call('plain'), note: 'nothing secret' };
  }
}

/** Stands in for the API-key guard: the workspace comes from a header. */
@Injectable()
class TestAuthGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const workspace = request.headers['x-workspace'];
    if (typeof workspace !== 'string') throw new ApiError(401, 'UNAUTHORIZED', 'no workspace');
    request.auth = { workspaceId: workspace, keyId: 'key_0', scopes: ['admin'] };
    return true;
  }
}

async function startApp(store: IdempotencyStore, box: SecretBox | undefined): Promise<NestFastifyApplication> {
  const providers: Provider[] = [
    { provide: IdempotencyStore, useValue: store },
    { provide: APP_GUARD, useClass: TestAuthGuard },
    { provide: APP_FILTER, useClass: ApiExceptionFilter },
  ];
  if (box) providers.push({ provide: SECRET_BOX, useValue: box });

  @Module({ controllers: [SecretsController], providers })
  class TestModule {}

  const app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter(), { logger: false });
  await app.init();
  await app.getHttpAdapter().getInstance().ready();
  return app;
}

describe('@Idempotent({ sensitive: true }) (Nest + Fastify)', () => {
  let dir: string;
  let reads: SqliteReadStore;
  let store: IdempotencyStore;
  let box: SecretBox;
  let app: NestFastifyApplication;
  let counter = 0;

  const postTo = (target: NestFastifyApplication, path: string, key: string, body: unknown = { name: 'ci' }, workspace = 'ws_A') =>
    target.inject({
      method: 'POST',
      url: `/t/${path}`,
      headers: { 'x-workspace': workspace, 'idempotency-key': key, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
  const post = (path: string, key: string, body?: unknown) => postTo(app, path, key, body);
  const freshKey = (): string => `key-${(counter += 1)}`;
  const record = (key: string, workspace = 'ws_A') =>
    reads.collection<IdempotencyRecord>(IDEMPOTENCY_KEYS).get(idempotencyRecordId(workspace, key));

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cc-idem-sealed-'));
    reads = new SqliteReadStore(join(dir, 'read.db'));
    store = new IdempotencyStore(reads, { now: () => new Date() }, { ttlMs: 86_400_000, leaseMs: 60_000, waitMs: 0 });
    box = new SecretBox(randomBytes(32));
    app = await startApp(store, box);
  });

  afterAll(async () => {
    await app.close();
    await reads.close();
    rmSync(dir, { recursive: true, force: true });
  });

  beforeEach(() => calls.clear());
  afterEach(() => jest.restoreAllMocks());

  it('keeps IDEMPOTENT_ROUTE === true on every @Idempotent route (the route catalog checks it so)', () => {
    const reflector = new Reflector();
    for (const handler of [SecretsController.prototype.createKey, SecretsController.prototype.plain]) {
      expect(reflector.get<unknown>(IDEMPOTENT_ROUTE, handler)).toBe(true);
    }
    expect(reflector.get<unknown>(IDEMPOTENT_OPTIONS, SecretsController.prototype.createKey)).toEqual({ sensitive: true });
    expect(reflector.get<unknown>(IDEMPOTENT_OPTIONS, SecretsController.prototype.plain)).toEqual({ sensitive: false });
  });

  it('stores the answer sealed, with no trace of the secret, and replays it byte for byte', async () => {
    const key = freshKey();
    const first = await post('keys', key, { name: 'ci — clé 🔑' });
    expect(first.statusCode).toBe(201);
    const { secret } = first.json<{ secret: string }>();
    expect(secret).toMatch(/^sk_[0-9a-f]{48}$/);

    const stored = await record(key);
    expect(stored?.state).toBe('completed');
    expect(stored?.response?.body).toBeUndefined();
    expect(stored?.response?.sealedBody).toMatch(new RegExp(`^sb1\\.${box.keyId}\\.[\\w-]+\\.[\\w-]+\\.[\\w-]+$`));
    expect(stored?.response).toMatchObject({ status: 201, headers: {} });
    const raw = JSON.stringify(stored);
    expect(raw).not.toContain(secret);
    expect(raw).not.toContain(secret.slice(3)); // not even the random part

    const again = await post('keys', key, { name: 'ci — clé 🔑' });
    expect(again.statusCode).toBe(201);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['original-request']).toBe(String(stored?.response?.requestId));
    expect(calls.get('keys')).toBe(1);
  });

  it('leaves no secret in the SQLite files themselves', async () => {
    await post('keys', freshKey());
    await post('keys', freshKey());
    const files = ['read.db', 'read.db-wal'].map((name) => join(dir, name)).filter((file) => existsSync(file));
    expect(files.length).toBeGreaterThan(0);
    const bytes = Buffer.concat(files.map((file) => readFileSync(file)));
    expect(secretsIssued.length).toBeGreaterThan(0);
    for (const secret of secretsIssued) expect(bytes.includes(Buffer.from(secret))).toBe(false);
  });

  it('seals an error answer of a sensitive route too, and replays it identically', async () => {
    const key = freshKey();
    const first = await post('refused-secret', key);
    expect(first.statusCode).toBe(409);
    const stored = await record(key);
    expect(stored?.response?.sealedBody).toMatch(/^sb1\./);
    expect(JSON.stringify(stored)).not.toContain('refused #1');
    const again = await post('refused-secret', key);
    expect(again.statusCode).toBe(409);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(calls.get('refused-secret')).toBe(1);
  });

  it('keeps @Idempotent() answers in clear, as before', async () => {
    const key = freshKey();
    const first = await post('plain', key);
    const stored = await record(key);
    expect(stored?.response?.body).toEqual({ n: 1, note: 'nothing secret' });
    expect(stored?.response?.sealedBody).toBeUndefined();
    const again = await post('plain', key);
    expect(again.body).toBe(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(calls.get('plain')).toBe(1);
  });

  it('refuses a sealed answer copied onto another record: 409 IDEMPOTENCY_REPLAY_UNAVAILABLE', async () => {
    const [original, other] = [freshKey(), freshKey()];
    await post('keys', original);
    await post('keys', other);
    const records = reads.collection<IdempotencyRecord>(IDEMPOTENCY_KEYS);
    const from = await record(original);
    const to = await record(other);
    if (!from?.response || !to) throw new Error('records missing');
    await records.put({ ...to, response: from.response });
    const moved = await post('keys', other);
    expect(moved.statusCode).toBe(409);
    expect(moved.json()).toEqual({ code: 'IDEMPOTENCY_REPLAY_UNAVAILABLE', message: expect.stringContaining('can no longer be replayed') });
    expect(calls.get('keys')).toBe(2);
  });

  it('answers 409 IDEMPOTENCY_REPLAY_UNAVAILABLE when the key changed, logging why but never the body', async () => {
    const key = freshKey();
    const first = await post('keys', key);
    const { secret } = first.json<{ secret: string }>();
    const warnings: string[] = [];
    jest.spyOn(Logger.prototype, 'warn').mockImplementation((message: unknown) => {
      warnings.push(String(message));
    });

    const rotated = await startApp(store, new SecretBox(randomBytes(32)));
    try {
      const retry = await postTo(rotated, 'keys', key);
      expect(retry.statusCode).toBe(409);
      expect(retry.json()).toEqual({ code: 'IDEMPOTENCY_REPLAY_UNAVAILABLE', message: expect.stringContaining('already took effect') });
      expect(retry.body).not.toContain(secret);
      expect(retry.headers['idempotent-replayed']).toBeUndefined();
    } finally {
      await rotated.close();
    }
    expect(calls.get('keys')).toBe(1);
    expect(warnings).toEqual([expect.stringMatching(/cannot be opened.*another key/)]);
    expect(warnings.join('\n')).not.toContain(secret);
    // The record is kept: the original key comes back, the answer does too.
    expect((await post('keys', key)).body).toBe(first.body);
  });

  it('refuses to run a sensitive route without the SecretBox rather than store its secret in clear', async () => {
    const boxless = await startApp(store, undefined);
    try {
      const key = freshKey();
      const res = await postTo(boxless, 'keys', key);
      expect(res.statusCode).toBe(500);
      expect(calls.get('keys')).toBeUndefined();
      expect(await record(key)).toBeNull();
      // Plain routes work without it.
      expect((await postTo(boxless, 'plain', freshKey())).statusCode).toBe(201);
    } finally {
      await boxless.close();
    }
  });
});
