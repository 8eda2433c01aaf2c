// The widget script as served: valid JavaScript, within its size budget, with the condition scale
// put in, calling only its own origin, and its ETag naming its version and content.
import { Script } from 'node:vm';

import { WIDGET_ETAG, WIDGET_MAX_GZIP_BYTES, widgetGzipBytes } from './widget.http';
import { WIDGET_CONDITIONS, WIDGET_SCRIPT } from './widget.script';

describe('widget.js', () => {
  it('parses as a script', () => {
    expect(() => new Script(WIDGET_SCRIPT, { filename: 'widget.js' })).not.toThrow();
  });

  it('is at most 15 KB gzipped', () => {
    expect(widgetGzipBytes()).toBeLessThanOrEqual(WIDGET_MAX_GZIP_BYTES);
  });

  it('carries the condition scale, best first', () => {
    expect(WIDGET_SCRIPT).not.toContain('__CONDITIONS__');
    expect(WIDGET_CONDITIONS.map(([label]) => label)).toEqual(['Mint', 'Near Mint', 'Lightly Played', 'Moderately Played', 'Heavily Played', 'Damaged']);
    expect(WIDGET_SCRIPT).toContain(JSON.stringify(WIDGET_CONDITIONS));
  });

  it('loads nothing from anywhere but its own origin', () => {
    expect(WIDGET_SCRIPT).not.toMatch(/https?:\/\/(?!\.\.\.)/);
    expect(WIDGET_SCRIPT).not.toMatch(/\b(import|require)\s*\(/);
    expect(WIDGET_SCRIPT).not.toMatch(/innerHTML|eval\(|new Function/);
  });

  it('has an ETag with its version and content hash', () => {
    expect(WIDGET_ETAG).toMatch(/^"w1-[A-Za-z0-9_-]{22}"$/);
  });
});
