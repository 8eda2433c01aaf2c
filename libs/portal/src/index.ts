// @app/portal — the web portal: a page for a workspace's people (API keys, webhooks and their
// deliveries, the event log, buyer emails, the widget's settings, their password) on the API's own
// routes, signed in with a session (see @app/access).
export { PORTAL_CSP } from './portal.http';
export { PortalModule } from './portal.module';
