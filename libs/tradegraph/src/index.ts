// @app/tradegraph — market intelligence from projections of the log: demand clusters (summary),
// supply, price bands with their anomalies (pricing) and execution routing, under /api/v1/tradegraph.
// Its contract is its Nest module; everything else in this library is its own business.
export { TradegraphModule } from './tradegraph.module';
