// @app/tradegraph — market intelligence from projections of the log: price bands, their dispersion
// and the listings priced outside them (GET /api/v1/tradegraph/pricing). The summary, supply and
// routing routes, the demo seed and the benchmark come next (issue 16's notes).

export { TradegraphModule } from './tradegraph.module';
