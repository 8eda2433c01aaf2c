export * from './buyer-request/buyer-request.decider';
export * from './buyer-request/buyer-request.events';
export * from './buyer-request/buyer-request.handlers';
export * from './buyer-request/buyer-request.http';
export * from './buyer-request/buyer-request.projection';
export * from './buyer-request/buyer-request.schemas';
export * from './buyer-request/instant-matching.port';
export * from './demand.module';
