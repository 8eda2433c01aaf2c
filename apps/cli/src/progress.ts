// Progress on stderr for long CLI commands: a bar redrawn in place on a terminal (at most every
// 100 ms), else a plain line every 5 s — done / total, the rate and the time left at that rate.

export interface ProgressLine {
  /** What is being done, e.g. `rebuild tradegraph`. */
  label: string;
  done: number;
  total: number;
  /** Items per second so far (events, rows…), and their unit. */
  rate: number;
  unit: string;
}

const WIDTH = 24;

/** `1m 05s`, `12s`, `2h 03m` */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** One progress line: `[#####-----]  45% rebuild x · 12,345 events/s · ETA 1m 05s`. */
export function progressLine(p: ProgressLine, elapsedSeconds: number): string {
  const fraction = p.total <= 0 ? 1 : Math.min(1, p.done / p.total);
  const filled = Math.round(WIDTH * fraction);
  const left = fraction > 0 ? (elapsedSeconds * (1 - fraction)) / fraction : Number.NaN;
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(fraction * 100)).padStart(3)}% ${p.label} · ${Math.round(p.rate).toLocaleString('en')} ${p.unit}/s · ETA ${duration(left)}`;
}

export class ProgressReporter {
  private readonly tty: boolean;
  private readonly started = Date.now();
  private lastDraw = 0;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {
    this.tty = out.isTTY === true;
  }

  update(p: Omit<ProgressLine, 'rate'> & { counted: number }): void {
    const now = Date.now();
    if (now - this.lastDraw < (this.tty ? 100 : 5000)) return;
    this.lastDraw = now;
    const elapsed = (now - this.started) / 1000;
    const line = progressLine({ ...p, rate: elapsed > 0 ? p.counted / elapsed : 0 }, elapsed);
    this.out.write(this.tty ? `\r${line}` : `${line}\n`);
  }

  finish(summary: string): void {
    this.out.write(`${this.tty ? '\r\x1b[2K' : ''}${summary}\n`);
  }
}


/** Progress of a run in phases (the demo seed's weeks): a bar redrawn in place on a terminal, else one line per phase. */
export class PhaseProgress {
  private readonly tty = process.stderr.isTTY === true;
  private done = 0;
  private phase = '';
  private phaseDone = 0;
  private phaseStarted = 0;
  private lastDraw = 0;

  constructor(private readonly total: number) {}

  start(phase: string): void {
    this.phase = phase;
    this.phaseDone = 0;
    this.phaseStarted = Date.now();
    this.draw(true);
  }

  tick(): void {
    this.done++;
    this.phaseDone++;
    this.draw(false);
  }

  end(): void {
    if (this.tty) this.draw(true);
    else process.stderr.write(`demo seed: ${this.phase}: ${this.phaseDone} in ${Date.now() - this.phaseStarted} ms (${this.percent()}%)\n`);
  }

  finish(): void {
    if (this.tty) process.stderr.write('\n');
  }

  private percent(): number {
    return this.total === 0 ? 100 : Math.floor((100 * this.done) / this.total);
  }

  private draw(force: boolean): void {
    if (!this.tty) return;
    const now = Date.now();
    if (!force && now - this.lastDraw < 50) return;
    this.lastDraw = now;
    const width = 24;
    const filled = Math.round((width * this.percent()) / 100);
    process.stderr.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${String(this.percent()).padStart(3)}% ${this.phase.padEnd(10)}`);
  }
}
