import { loadConfig } from '../config';
import { announceReady, createProcessLogger, loggableUrl, logFormatOf, logLevelOf, processLoggerFor } from './process-logger';

describe('loggableUrl', () => {
  it('hides the unsubscribe token of a buyer email, and leaves other URLs as they are', () => {
    expect(loggableUrl('/email/unsubscribe/u1.ws_1.buyer_x.abc')).toBe('/email/unsubscribe/[redacted]');
    expect(loggableUrl('/email/unsubscribe/u1.ws_1.buyer_x.abc?x=1')).toBe('/email/unsubscribe/[redacted]?x=1');
    expect(loggableUrl('/api/v1/buyer-requests/br_1?limit=2')).toBe('/api/v1/buyer-requests/br_1?limit=2');
  });
});

/** What a logger printed, line by line. */
function sink(): { write(text: string): void; lines(): string[] } {
  let text = '';
  return { write: (t: string) => void (text += t), lines: () => text.split('\n').filter((l) => l !== '') };
}

describe('LOG_FORMAT and LOG_LEVEL', () => {
  it('takes auto by default: pretty on a terminal, JSON lines otherwise', () => {
    const config = loadConfig({});
    expect(config.LOG_FORMAT).toBe('auto');
    expect(logFormatOf(config, true)).toBe('pretty');
    expect(logFormatOf(config, false)).toBe('json');
    expect(logFormatOf(loadConfig({ LOG_FORMAT: 'json' }), true)).toBe('json');
    expect(logFormatOf(loadConfig({ LOG_FORMAT: 'pretty' }), false)).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT/);
  });

  it('logs info and up in JSON lines and warnings and up for people, unless LOG_LEVEL says otherwise', () => {
    expect(logLevelOf(loadConfig({}), 'json')).toBe('info');
    expect(logLevelOf(loadConfig({}), 'pretty')).toBe('warn');
    expect(logLevelOf(loadConfig({ LOG_LEVEL: 'debug' }), 'pretty')).toBe('debug');
    expect(logLevelOf(loadConfig({ LOG_LEVEL: 'error' }), 'json')).toBe('error');
    expect(processLoggerFor(loadConfig({ LOG_LEVEL: 'silent' }), true).logger).toBeNull();
    const { logger, format } = processLoggerFor(loadConfig({}), true);
    expect(format).toBe('pretty');
    expect(logger?.level).toBe('warn');
  });

  it('prints JSON lines with the standard fields in json', () => {
    const out = sink();
    const logger = createProcessLogger('info', 'json', out);
    logger?.child({ context: 'platform' }).info('projections running: a, b');
    logger?.debug('not at info');
    expect(out.lines().map((l) => JSON.parse(l) as unknown)).toEqual([
      { level: 30, time: expect.any(Number), pid: process.pid, hostname: expect.any(String), context: 'platform', msg: 'projections running: a, b' },
    ]);
  });

  it('prints short lines, without JSON or colours, in pretty', () => {
    const out = sink();
    const logger = createProcessLogger('warn', 'pretty', out);
    logger?.info('not at warn');
    logger?.child({ context: 'webhooks' }).warn('endpoint disabled');
    logger?.error({ err: new Error('boom') }, 'request failed');
    const lines = out.lines();
    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d WARN {2}webhooks: endpoint disabled$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d ERROR request failed$/);
    expect(lines[2]).toBe('    Error: boom');
    expect(out.lines().join('\n')).not.toMatch(/[{\u001b]/);
  });

  it('announces a ready line through the logger, in its format', () => {
    const out = sink();
    announceReady(createProcessLogger('info', 'pretty', out), 'worker running projections: a');
    expect(out.lines()).toEqual([expect.stringMatching(/^\d\d:\d\d:\d\d INFO {2}worker running projections: a$/)]);
  });
});
