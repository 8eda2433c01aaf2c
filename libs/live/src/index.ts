// @app/live — the live selling context's contract: sessions, lots and reserves. Everything else in
// this library is its own business.

export { LiveModule } from './live.module';

// Public events (webhooks): catalogue entries and their data.
export { LIVE_SESSION_PUBLIC_EVENTS } from './session/live-session.public';
export { LOT_PUBLIC_EVENTS } from './lot/lot.public';
