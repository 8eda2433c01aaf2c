export * from './events/event-catalogue';
export * from './events/events.http';
export * from './events/public-event';
export * from './events/public-event.projection';
export * from './webhooks.module';
