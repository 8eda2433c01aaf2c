// @app/live — the live selling context's contract: sessions, lots and reserves. Everything else in
// this library is its own business.

export { LiveModule } from './live.module';

// Public events (webhooks): catalogue entries and their data.
export { LIVE_PUBLIC_EVENTS } from './live.public';
