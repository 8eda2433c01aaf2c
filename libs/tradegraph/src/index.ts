// @app/tradegraph — market intelligence from projections of the log (issue 16, in progress): the
// read models the tradegraph routes will read. Not yet wired into the composition roots: the routes,
// the demo seed and the benchmark come next (see the notes).

export { tradegraphProjection } from './tradegraph.projection';
