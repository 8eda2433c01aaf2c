// tradegraph's pure statistics: weighted quantiles and the price band, the band's dispersion,
// price anomalies against it, trends and velocity, expected value and confidence — every number
// with the factors behind it. No I/O, no dependencies beyond each other.
export * from './factor';
export * from './quantiles';
export * from './dispersion';
export * from './anomaly';
export * from './trend';
export * from './expected-value';
