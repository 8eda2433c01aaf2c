// Scratch experiment of run h1m (paths are that session's): see README.md here.
// Preload: every 2 s append process.memoryUsage(), CPU and /proc/self/status RSS parts to $MEMLOG_OUT (JSON lines).
import { appendFileSync, readFileSync } from 'node:fs';
const out = process.env.MEMLOG_OUT;
if (out) {
  const kb = (s, k) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s)?.[1] ?? NaN) / 1024;
  const t = setInterval(() => {
    const m = process.memoryUsage();
    const c = process.cpuUsage();
    const s = readFileSync('/proc/self/status', 'utf8');
    const mib = (x) => Math.round(x / 1048576);
    appendFileSync(out, JSON.stringify({ t: new Date().toISOString(), pid: process.pid, main: process.argv[1]?.split('/').slice(-3).join('/'), cpuMs: Math.round((c.user + c.system) / 1000), rss: mib(m.rss), heapTotal: mib(m.heapTotal), heapUsed: mib(m.heapUsed), external: mib(m.external), arrayBuffers: mib(m.arrayBuffers), anon: Math.round(kb(s, 'RssAnon')), file: Math.round(kb(s, 'RssFile')), hwm: Math.round(kb(s, 'VmHWM')) }) + '\n');
  }, 2000);
  t.unref();
}
