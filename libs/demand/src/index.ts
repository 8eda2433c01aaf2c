export * from './buyer-request/buyer-request.handlers';
export * from './buyer-request/buyer-request.http';
export * from './buyer-request/buyer-request.projection';
export * from './demand.module';
