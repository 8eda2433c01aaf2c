import { grants, missingScope } from './scopes';

describe('scopes', () => {
  it('grants a scope by itself, by admin, and a read: one by its write:', () => {
    expect(grants(['read:trades'], 'read:trades')).toBe(true);
    expect(grants(['admin'], 'write:webhooks')).toBe(true);
    expect(grants(['write:inventory'], 'read:inventory')).toBe(true);
    expect(grants(['read:inventory'], 'write:inventory')).toBe(false);
  });

  it('names the first scope of several a key lacks, none when it has them all', () => {
    const all = ['read:trades', 'read:inventory', 'read:requests'] as const;
    expect(missingScope(['read:trades'], all)).toBe('read:inventory');
    expect(missingScope(['write:trades', 'write:inventory'], all)).toBe('read:requests');
    expect(missingScope(['read:trades', 'write:inventory', 'read:requests'], all)).toBeUndefined();
    expect(missingScope(['admin'], all)).toBeUndefined();
    expect(missingScope([], [])).toBeUndefined();
  });
});
