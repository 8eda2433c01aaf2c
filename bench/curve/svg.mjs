// The picture of a `npm run bench:curve` run, drawn as SVG text from its JSON report (no
// dependency): top row, p99 against the offered rate, one panel per path, one line per size (and
// the baseline); bottom row, CPU µs per request and the saturated rate against the number of items.
//
//   node bench/curve/svg.mjs <report.json> [notes.txt]    redraws <report>.svg (notes: lines under the charts)
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SIZE_COLOURS = ['#1b9e77', '#d95f02', '#7570b3', '#e7298a', '#66a61e', '#a6761d'];
const PATH_COLOURS = { write: '#d62728', read: '#1f77b4', search: '#2ca02c' };
const BASELINE = '#666';
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const sizeName = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n)) + ' items';
const num = (n) => (n >= 1000 ? n.toLocaleString('en') : n >= 10 ? String(Math.round(n)) : n >= 1 ? String(Math.round(n * 10) / 10) : String(Math.round(n * 100) / 100));

/** Log ticks (1, 2, 5 × 10^k) within [lo, hi]. */
function logTicks(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e += 1) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out;
}

function extent(values, pad) {
  const v = values.filter((x) => Number.isFinite(x) && x > 0);
  if (v.length === 0) return [1, 10];
  return [Math.min(...v) / pad, Math.max(...v) * pad];
}

/** One panel with log x and log y axes; series = [{ name, colour, dash?, points: [{x, y, mark?}] }]. */
function panel({ x, y, w, h, title, xLabel, yLabel, xDomain, yDomain, xTicks, series, linearY = false }) {
  const [x0, x1] = xDomain.map(Math.log10);
  const [y0, y1] = linearY ? yDomain : yDomain.map(Math.log10);
  const px = (v) => x + ((Math.log10(v) - x0) / (x1 - x0)) * w;
  const py = (v) => y + h - (((linearY ? v : Math.log10(v)) - y0) / (y1 - y0)) * h;
  const out = [`<g>`, `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="#fff" stroke="#999"/>`];
  out.push(`<text x="${x + w / 2}" y="${y - 10}" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`);
  for (const t of xTicks) {
    out.push(`<line x1="${px(t)}" x2="${px(t)}" y1="${y}" y2="${y + h}" stroke="#eee"/>`);
    out.push(`<text x="${px(t)}" y="${y + h + 16}" text-anchor="middle" font-size="12">${num(t)}</text>`);
  }
  const yTicks = linearY ? niceLinear(yDomain) : logTicks(...yDomain);
  for (const t of yTicks) {
    out.push(`<line x1="${x}" x2="${x + w}" y1="${py(t)}" y2="${py(t)}" stroke="#eee"/>`);
    out.push(`<text x="${x - 6}" y="${py(t) + 4}" text-anchor="end" font-size="12">${num(t)}</text>`);
  }
  out.push(`<text x="${x + w / 2}" y="${y + h + 36}" text-anchor="middle" font-size="13">${esc(xLabel)}</text>`);
  out.push(`<text transform="translate(${x - 56} ${y + h / 2}) rotate(-90)" text-anchor="middle" font-size="13">${esc(yLabel)}</text>`);
  for (const s of series) {
    const pts = s.points.filter((p) => Number.isFinite(p.y) && p.y > 0 && Number.isFinite(p.x) && p.x > 0);
    const line = pts.filter((p) => !p.apart);
    if (line.length > 1) {
      out.push(
        `<polyline fill="none" stroke="${s.colour}" stroke-width="2.5"${s.dash ? ` stroke-dasharray="${s.dash}"` : ''} points="${line.map((p) => `${px(p.x).toFixed(1)},${py(p.y).toFixed(1)}`).join(' ')}"/>`,
      );
    }
    for (const p of pts) {
      const cx = px(p.x).toFixed(1);
      const cy = py(p.y).toFixed(1);
      if (p.mark === 'hidden') continue;
      if (p.mark === 'square') out.push(`<rect x="${cx - 5}" y="${cy - 5}" width="10" height="10" fill="none" stroke="${s.colour}" stroke-width="2"/>`);
      else if (p.mark === 'knee') out.push(`<circle cx="${cx}" cy="${cy}" r="7" fill="#fff" stroke="${s.colour}" stroke-width="3"/><text x="${Number(cx) + 9}" y="${Number(cy) + 4}" font-size="11" fill="${s.colour}">behind</text>`);
      else out.push(`<circle cx="${cx}" cy="${cy}" r="3.5" fill="${s.colour}"/>`);
    }
  }
  out.push('</g>');
  return out.join('\n');
}

function niceLinear([lo, hi]) {
  const step = 10 ** Math.floor(Math.log10((hi - lo) / 4 || 1));
  const k = [1, 2, 5, 10].find((m) => (hi - lo) / (m * step) <= 6) ?? 10;
  const out = [];
  for (let v = Math.ceil(lo / (k * step)) * k * step; v <= hi; v += k * step) out.push(v);
  return out;
}

/** A legend in a column (one entry a line) or, with `row`, on one line. */
function legend(x0, y0, entries, row = false) {
  let next = x0;
  return entries
    .map((e, i) => {
      const x = row ? next : x0;
      const ly = row ? y0 : y0 + i * 20;
      next += 50 + e.name.length * 6.4;
      const sym = e.mark === 'square'
        ? `<rect x="${x + 9}" y="${ly - 5}" width="10" height="10" fill="none" stroke="${e.colour}" stroke-width="2"/>`
        : e.mark === 'knee'
          ? `<circle cx="${x + 14}" cy="${ly}" r="6" fill="#fff" stroke="${e.colour}" stroke-width="3"/>`
          : `<line x1="${x}" x2="${x + 28}" y1="${ly}" y2="${ly}" stroke="${e.colour}" stroke-width="2.5"${e.dash ? ` stroke-dasharray="${e.dash}"` : ''}/>`;
      return `${sym}<text x="${x + 36}" y="${ly + 4}" font-size="12">${esc(e.name)}</text>`;
    })
    .join('\n');
}

const id0 = (paths) => (paths.length > 1 ? 'each' : paths[0]);
const legendRow = (x, y, entries) => legend(x, y, entries, true);

function rateSeries(sweep) {
  const pts = sweep.points.map((p) => ({ x: p.offeredRate, y: p.latencyMs.p99, mark: p.keptUp ? undefined : 'knee' }));
  pts.push({ x: sweep.saturated.achievedRate, y: sweep.saturated.latencyMs.p99, mark: 'square', apart: true });
  return pts;
}

export function drawCurve(report, notes = []) {
  const sizes = report.sizes.map((s) => s.items);
  const paths = [...new Set(report.sizes.flatMap((s) => Object.keys(s.sweeps)))];
  const W = 1320;
  const pw = 330;
  const ph = 260;
  const top = 120;
  const row2 = top + ph + 110;
  const notesTop = row2 + ph + 80;
  const H = notesTop + 24 + notes.length * 18 + 20;
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="${W}" height="${H}" fill="#fafafa"/>`,
    `<text x="24" y="32" font-size="20" font-weight="bold">How cost grows with size and rate — npm run bench:curve (${esc(report.runName)})</text>`,
    `<text x="24" y="54" font-size="13">${esc(`build ${report.appCommit}, ${report.date.slice(0, 16).replace('T', ' ')} UTC, ${report.machine.cpus} × ${report.machine.cpuModel}; ${report.settings.durationSeconds} s per point, open loop at even rates over ≤ ${report.settings.connections} connections; saturated = closed loop, ${report.settings.connections} connections`)}</text>`,
  ];
  // Row 1: p99 against the offered rate, one panel per path.
  const allSweeps = (id) => [...report.sizes.map((s) => s.sweeps[id]), report.baseline?.sweeps?.[id]].filter(Boolean);
  const allRates = paths.flatMap((id) => allSweeps(id).flatMap((sw) => [...sw.points.map((p) => p.offeredRate), sw.saturated.achievedRate]));
  const xDomain = [Math.min(...allRates) / 1.3, Math.max(...allRates) * 1.3];
  const xTicks = [...new Set([...report.settings.rates, ...logTicks(...xDomain).filter((t) => t > Math.max(...report.settings.rates) * 1.5)])];
  paths.forEach((id, i) => {
    const series = report.sizes
      .filter((s) => s.sweeps[id])
      .map((s, k) => ({ name: sizeName(s.items), colour: SIZE_COLOURS[k % SIZE_COLOURS.length], points: rateSeries(s.sweeps[id]) }));
    const base = report.baseline?.sweeps?.[id];
    if (base) series.push({ name: 'baseline', colour: BASELINE, dash: '6 4', points: rateSeries(base) });
    const yDomain = extent(series.flatMap((s) => s.points.map((p) => p.y)), 1.5);
    const label = allSweeps(id)[0]?.label ?? id;
    svg.push(
      panel({ x: 90 + i * (pw + 95), y: top, w: pw, h: ph, title: `${id}: p99 against the rate`, xLabel: 'offered rate, req/s (log) — □ saturated, at its rate', yLabel: 'p99 latency, ms (log)', xDomain, yDomain, xTicks, series }),
      `<text x="${90 + i * (pw + 95) + pw / 2}" y="${top + ph + 54}" text-anchor="middle" font-size="11" fill="#444">${esc(label)}</text>`,
    );
  });
  const sizeLegend = report.sizes.map((s, k) => ({ name: sizeName(s.items), colour: SIZE_COLOURS[k % SIZE_COLOURS.length] }));
  svg.push(
    legendRow(90, 76, [
      ...sizeLegend,
      { name: 'baseline (bare Fastify)', colour: BASELINE, dash: '6 4' },
      { name: 'the rate it fell behind at (achieved < 90 %)', colour: '#333', mark: 'knee' },
      { name: 'saturated (closed loop)', colour: '#333', mark: 'square' },
    ]),
  );
  // Row 2: CPU per request (saturated, and at the lowest rate) and the saturated rate against size.
  const sizeDomain = [Math.min(...sizes) / 1.6, Math.max(...sizes) * 1.6];
  const sizeTicks = sizes;
  const perPath = (id, f) => report.sizes.filter((s) => s.sweeps[id]).map((s) => ({ x: s.items, y: f(s.sweeps[id]) }));
  const flat = (id, f) => {
    const b = report.baseline?.sweeps?.[id];
    return b ? [{ x: sizeDomain[0] * 1.05, y: f(b) }, { x: sizeDomain[1] / 1.05, y: f(b) }] : [];
  };
  const cpuSeries = [];
  const rateSeriesBySize = [];
  for (const id of paths) {
    const colour = PATH_COLOURS[id] ?? '#000';
    cpuSeries.push({ name: `${id}, saturated`, colour, points: perPath(id, (sw) => sw.saturated.cpuUsPerRequest) });
    cpuSeries.push({ name: `${id}, at ${report.settings.rates[0]} req/s`, colour, dash: '2 4', points: perPath(id, (sw) => sw.points[0]?.cpuUsPerRequest) });
    const b = flat(id, (sw) => sw.saturated.cpuUsPerRequest);
    if (b.length) cpuSeries.push({ name: `baseline ${id}`, colour, dash: '10 5', points: b.map((p) => ({ ...p, mark: 'hidden' })) });
    rateSeriesBySize.push({ name: id, colour, points: perPath(id, (sw) => sw.saturated.achievedRate) });
    const br = flat(id, (sw) => sw.saturated.achievedRate);
    if (br.length) rateSeriesBySize.push({ name: `baseline ${id}`, colour, dash: '10 5', points: br.map((p) => ({ ...p, mark: 'hidden' })) });
  }
  const cpuDomain = extent(cpuSeries.flatMap((s) => s.points.map((p) => p.y)), 1.4);
  const rateDomain = extent(rateSeriesBySize.flatMap((s) => s.points.map((p) => p.y)), 1.4);
  // The app's CPU in cores during each fixed-rate point, per size: where it meets one core (its
  // JavaScript thread), the rate stops being served at the offered pace.
  const PATH_DASH = { write: undefined, read: '2 4', search: '8 3 2 3' };
  const coreSeries = report.sizes.flatMap((s, k) =>
    Object.values(s.sweeps).map((sw) => ({
      name: `${sizeName(s.items)} ${sw.path}`,
      colour: SIZE_COLOURS[k % SIZE_COLOURS.length],
      dash: PATH_DASH[sw.path],
      points: sw.points.map((p) => ({ x: p.offeredRate, y: p.serverCpuCores, mark: p.keptUp ? undefined : 'knee' })),
    })),
  );
  const coreDomain = [0, Math.max(1.2, ...coreSeries.flatMap((s) => s.points.map((p) => p.y)).filter(Number.isFinite)) * 1.05];
  const rateTicks = report.settings.rates;
  svg.push(
    legendRow(90, row2 - 40, [
      ...paths.map((id) => ({ name: `${id}, saturated`, colour: PATH_COLOURS[id] ?? '#000' })),
      { name: `${id0(paths)} at ${report.settings.rates[0]} req/s (CPU)`, colour: '#333', dash: '2 4' },
      { name: 'baseline, saturated', colour: '#333', dash: '10 5' },
      { name: 'right: write ─, read ┄, search ─·', colour: '#fafafa' },
    ]),
    panel({ x: 90, y: row2, w: pw, h: ph, title: 'CPU per request against size', xLabel: 'inventory items (log)', yLabel: 'app CPU µs per request (log)', xDomain: sizeDomain, yDomain: cpuDomain, xTicks: sizeTicks, series: cpuSeries }),
    panel({ x: 90 + (pw + 95), y: row2, w: pw, h: ph, title: 'saturated throughput against size', xLabel: 'inventory items (log)', yLabel: `req/s, ${report.settings.connections} connections (log)`, xDomain: sizeDomain, yDomain: rateDomain, xTicks: sizeTicks, series: rateSeriesBySize }),
    panel({ x: 90 + 2 * (pw + 95), y: row2, w: pw, h: ph, title: 'app CPU (cores) against the rate', xLabel: 'offered rate, req/s (log)', yLabel: 'app CPU, cores (linear)', xDomain: [rateTicks[0] / 1.3, rateTicks.at(-1) * 1.3], yDomain: coreDomain, xTicks: rateTicks, series: coreSeries, linearY: true }),
    `<text x="90" y="${row2 + ph + 54}" font-size="11" fill="#444">CPU = the app process's user + system time (/proc) from the start of a point until its projections and process managers had caught up again, per 2xx answer; cores = in the load window</text>`,
  );
  if (notes.length) {
    svg.push(`<text x="24" y="${notesTop}" font-size="14" font-weight="bold">Where it bends, and why</text>`);
    notes.forEach((line, i) => svg.push(`<text x="24" y="${notesTop + 22 + i * 18}" font-size="13">${esc(line)}</text>`));
  }
  svg.push('</svg>');
  return `${svg.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [file, notesFile] = process.argv.slice(2);
  if (!file) throw new Error('usage: node bench/curve/svg.mjs <report.json> [notes.txt]');
  const report = JSON.parse(readFileSync(file, 'utf8'));
  const notes = notesFile ? readFileSync(notesFile, 'utf8').split('\n').filter((l) => l.trim()) : [];
  const out = file.replace(/\.json$/, '.svg');
  writeFileSync(out, drawCurve(report, notes));
  process.stdout.write(`${out}\n`);
}
