// Bench only: makes `node --import ./bench/no-auth-preload.mjs dist/apps/api/src/main.js` the very
// same app without authentication and rate limiting, for the "auth cost" scenario of bench/run.mjs.
// The product has no switch for this on purpose; this composes it from the outside instead.
//
// It replaces the one global guard provider (API_KEY_GUARD_PROVIDER, which authenticates the key,
// counts the request against the rate limits and checks the scope) in AppModule.forRoot with a
// guard that only sets the caller every route expects (BENCH_WORKSPACE_ID, full access). Everything
// else — main.js, bootstrap, hooks, filters, modules, handlers — is the build being measured.
import { createRequire } from 'node:module';

const workspaceId = process.env.BENCH_WORKSPACE_ID;
if (!workspaceId) throw new Error('no-auth-preload: set BENCH_WORKSPACE_ID (the workspace every request acts as)');

// Resolve from the main script, so BENCH_APP_ROOT builds patch their own modules.
const requireFromMain = createRequire(process.argv[1]);
// As main.js does first: decorators record their metadata only once reflect-metadata is loaded.
requireFromMain('reflect-metadata');
const { APP_GUARD } = requireFromMain('@nestjs/core');
const { AppModule } = requireFromMain('./app.module.js');
const { API_KEY_GUARD_PROVIDER } = requireFromMain('../../../libs/access/src/index.js');

class FixedCallerGuard {
  canActivate(context) {
    context.switchToHttp().getRequest().auth = { workspaceId, keyId: 'key_bench', scopes: ['admin'] };
    return true;
  }
}

const forRoot = AppModule.forRoot;
AppModule.forRoot = (config) => {
  const module = forRoot.call(AppModule, config);
  const providers = module.providers ?? [];
  if (!providers.includes(API_KEY_GUARD_PROVIDER)) {
    throw new Error('no-auth-preload: AppModule.forRoot no longer lists API_KEY_GUARD_PROVIDER; update this file');
  }
  return {
    ...module,
    providers: providers.map((p) => (p === API_KEY_GUARD_PROVIDER ? { provide: APP_GUARD, useClass: FixedCallerGuard } : p)),
  };
};
