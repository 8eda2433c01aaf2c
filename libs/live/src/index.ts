// @app/live — live selling: sessions a host runs, lots put up in them, reserves placed on lots.
// Issue 14, in progress: the aggregates and their deciders exist; the module, routes, the process
// manager turning winning reserves into holds, and the public events come next. Nothing here is
// wired into an app yet, so the contract is empty.
export {};
