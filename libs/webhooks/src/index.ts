// @app/webhooks — the webhooks context's contract: its Nest module, which the composition roots
// give the catalogue of every context's public events (WebhooksModule.forRoot).
export { WebhooksModule, type WebhooksOptions } from './webhooks.module';
