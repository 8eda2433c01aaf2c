import { PrettyLog, prettyDestination } from './pretty-log';

const at = (h: number, m: number, s: number) => new Date(2026, 0, 2, h, m, s).getTime();
const line = (entry: Record<string, unknown>) => `${JSON.stringify({ pid: 1, hostname: 'vm', ...entry })}\n`;

describe('pretty log lines', () => {
  it('prints time, level, context and message, then the other fields as key=value', () => {
    const pretty = new PrettyLog();
    expect(pretty.format(line({ level: 40, time: at(9, 5, 7), context: 'rate-limit', msg: 'store failed', attempts: 3, note: 'two words' }))).toBe(
      '09:05:07 WARN  rate-limit: store failed attempts=3 note="two words"\n',
    );
    expect(pretty.format(line({ level: 30, time: at(23, 0, 0), msg: 'shutting down', signal: 'SIGTERM' }))).toBe('23:00:00 INFO  shutting down signal=SIGTERM\n');
  });

  it("indents an error's stack below its line (pino's err, or the stack Nest's logger passes)", () => {
    const pretty = new PrettyLog();
    const err = { type: 'Error', message: 'boom', stack: 'Error: boom\n    at f (x.js:1:1)' };
    expect(pretty.format(line({ level: 50, time: at(1, 2, 3), msg: 'request failed', err }))).toBe(
      '01:02:03 ERROR request failed\n    Error: boom\n        at f (x.js:1:1)\n',
    );
    expect(pretty.format(line({ level: 50, time: at(1, 2, 3), context: 'http', msg: 'GET /x failed', stack: 'Error: no\n    at g' }))).toBe(
      '01:02:03 ERROR http: GET /x failed\n    Error: no\n        at g\n',
    );
  });

  it("drops the framework's start-up chatter at info, never its warnings", () => {
    const pretty = new PrettyLog();
    for (const context of ['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']) {
      expect(pretty.format(line({ level: 30, time: 0, context, msg: 'Mapped {/api/v1/x, GET} route' }))).toBe('');
    }
    expect(pretty.format(line({ level: 30, time: 0, msg: 'Server listening at http://127.0.0.1:3000' }))).toBe('');
    expect(pretty.format(line({ level: 40, time: at(0, 0, 1), context: 'InstanceLoader', msg: 'odd' }))).toBe('00:00:01 WARN  InstanceLoader: odd\n');
  });

  it("makes a request's two entries one line: method, URL, status and time", () => {
    const pretty = new PrettyLog();
    const req = { method: 'POST', url: '/api/v1/buyer-requests', host: '127.0.0.1:3000', remoteAddress: '127.0.0.1', remotePort: 5000 };
    expect(pretty.format(line({ level: 30, time: at(10, 0, 0), reqId: 'r1', req, msg: 'incoming request' }))).toBe('');
    expect(pretty.format(line({ level: 30, time: at(10, 0, 1), reqId: 'r1', res: { statusCode: 201 }, responseTime: 12.4, msg: 'request completed' }))).toBe(
      '10:00:01 INFO  POST /api/v1/buyer-requests 201 12 ms\n',
    );
    // One whose start it never saw (a level between the two) still says what it can.
    expect(pretty.format(line({ level: 30, time: at(10, 0, 2), reqId: 'r9', res: { statusCode: 404 }, responseTime: 1, msg: 'request completed' }))).toBe(
      '10:00:02 INFO  request 404 1 ms\n',
    );
  });

  it('passes a line that is not JSON through as it is', () => {
    expect(new PrettyLog().format('plain words')).toBe('plain words\n');
  });

  it('is a pino destination that writes nothing for a dropped line', () => {
    const written: string[] = [];
    const destination = prettyDestination({ write: (text: string) => written.push(text) });
    destination.write(line({ level: 30, time: 0, context: 'RouterExplorer', msg: 'Mapped' }));
    destination.write(line({ level: 40, time: at(12, 0, 0), msg: 'careful' }));
    expect(written).toEqual(['12:00:00 WARN  careful\n']);
  });
});
