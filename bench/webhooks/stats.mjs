// Figures of the webhooks bench: rounding, percentiles, a path's delivery rate and lag, deliveries
// per second, and what its receiver checked.
export const round = (n, digits = 1) => (Number.isFinite(n) ? Math.round(n * 10 ** digits) / 10 ** digits : null);

/** Percentile (nearest rank) of an ascending array. */
export function pct(sorted, p) {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Delivery figures of a path from `t0` (perf ms): arrival rate and end-to-end lag. */
export function deliveryStats(s, t0, { expected, times = s.firstOk, lags = s.lagsMs } = {}) {
  const n = times.length;
  const sortedLags = [...lags].sort((a, b) => a - b);
  const first = times[0];
  const last = times[n - 1];
  const i10 = Math.floor(0.1 * (n - 1));
  const i90 = Math.floor(0.9 * (n - 1));
  const steady = n >= 10 && times[i90] > times[i10] ? (i90 - i10) / ((times[i90] - times[i10]) / 1000) : Number.NaN;
  return {
    expected,
    delivered: n,
    complete: expected === undefined ? null : n >= expected,
    firstDeliveryAfterStartSeconds: n ? round((first - t0) / 1000, 3) : null,
    firstToLastSeconds: n ? round((last - first) / 1000, 3) : null,
    deliveriesPerSecondOverall: n > 1 ? round((n - 1) / ((last - first) / 1000), 1) : null,
    deliveriesPerSecondP10toP90: round(steady, 1),
    lagMs: { p50: round(pct(sortedLags, 50), 0), p99: round(pct(sortedLags, 99), 0), max: round(sortedLags[sortedLags.length - 1], 0) },
  };
}

/** Deliveries per 1 s bucket from `t0` (at most 600 buckets). */
export function perSecond(times, t0) {
  const buckets = [];
  for (const t of times) {
    const i = Math.floor((t - t0) / 1000);
    if (i < 0 || i >= 600) continue;
    while (buckets.length <= i) buckets.push(0);
    buckets[i] += 1;
  }
  return buckets;
}

export function receiverChecks(s) {
  return {
    requests: s.requests,
    ok2xx: s.ok,
    answered503: s.held,
    distinctDelivered: s.okIds.size,
    duplicates: s.duplicates,
    badSignatures: s.badSpec,
    badStandardSignatures: s.badStandard,
    unverified: s.unverified,
    idMismatches: s.idMismatch,
    meanBodyBytes: s.requests ? round(s.bodyBytes / s.requests, 0) : null,
  };
}
