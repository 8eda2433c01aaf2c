// @app/automations — the automations context's contract: rules that act on the service's events
// (a process manager on the log) and their runs. Everything else in this library is its own business.

export { AutomationsModule, type AutomationsOptions } from './automations.module';
