// The client's core, for the resource groups built on it: the transport, its errors, pagination.
export * from './errors';
export * from './pagination';
export * from './transport';
export * from './version';
