import { z } from 'zod';

import { configSchema } from './config';
import { CONFIG_DOCS, configSettings, configTableMarkdown, strayConfigDocs } from './config-docs';

const settingNames = (): string[] => Object.keys((configSchema as unknown as { in: { shape: Record<string, unknown> } }).in.shape);

describe('the configuration table (docs/configuration.md)', () => {
  it('describes every setting of the schema, in its order, leaving out only the internal ones', () => {
    const internal = Object.entries(CONFIG_DOCS)
      .filter(([, doc]) => doc?.internal)
      .map(([name]) => name);
    expect(internal).toEqual(['WORKER_ROLE']);
    expect(configSettings().map((row) => row.name)).toEqual(settingNames().filter((name) => !internal.includes(name)));
    expect(strayConfigDocs()).toEqual([]);
  });

  it("takes each default from the schema unless the entry writes it better, and '—' for none", () => {
    const rows = Object.fromEntries(configSettings().map((row) => [row.name, row]));
    expect(rows.PORT.default).toBe('`3000`');
    expect(rows.RUN_WORKERS.default).toBe('`true`');
    expect(rows.WEBHOOK_RETRY_SCHEDULE.default).toBe('`0,1m,5m,30m,2h`');
    expect(rows.TRUST_PROXY.default).toBe('`false`');
    expect(rows.MONGO_URL.default).toBe('—');
    expect(rows.BUYER_EMAIL_WINDOW.default).toBe('`1h`');
  });

  it('renders one table row per setting, with pipes inside cells escaped', () => {
    const table = configTableMarkdown().split('\n');
    expect(table.slice(0, 2)).toEqual(['| Variable | Default | Meaning |', '|---|---|---|']);
    expect(table).toHaveLength(2 + configSettings().length);
    for (const line of table.slice(2)) expect(line.replace(/\\\|/g, '').split('|')).toHaveLength(5);
  });

  it('prefers a zod description to an entry, and names a setting that has neither', () => {
    const rows = withFields({ PORT: z.coerce.number().default(3000).describe('the port, as zod describes it'), DESCRIBED_SETTING: z.string().optional().describe('only zod') }, () =>
      Object.fromEntries(configSettings().map((row) => [row.name, row.meaning])),
    );
    expect(rows.PORT).toBe('the port, as zod describes it');
    expect(rows.DESCRIBED_SETTING).toBe('only zod');
    expect(() => withFields({ UNDOCUMENTED_SETTING: z.string().optional() }, configSettings)).toThrow(
      /UNDOCUMENTED_SETTING has no description: give it a zod \.describe\(\) in libs\/platform\/src\/config\.ts or an entry in CONFIG_DOCS/,
    );
    expect(configSettings().find((row) => row.name === 'PORT')?.meaning).toBe(CONFIG_DOCS.PORT?.meaning);
  });
});

/** Runs `read` with fields of config.ts's schema replaced or added, then puts the schema back as it was. */
function withFields<T>(fields: Record<string, z.ZodType>, read: () => T): T {
  const shape = (configSchema as unknown as { in: { shape: Record<string, z.ZodType> } }).in.shape;
  const saved = { ...shape };
  Object.assign(shape, fields);
  try {
    return read();
  } finally {
    for (const key of Object.keys(shape)) delete shape[key];
    Object.assign(shape, saved);
  }
}
