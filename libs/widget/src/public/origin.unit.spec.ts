import { normalizeOrigin, originAllowed } from './origin';

describe('origins', () => {
  it.each([
    ['https://shop.example', 'https://shop.example'],
    ['https://Shop.Example:443/', 'https://shop.example'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    [' https://xn--bcher-kva.example ', 'https://xn--bcher-kva.example'],
  ])('%s is the origin %s', (text, origin) => {
    expect(normalizeOrigin(text)).toBe(origin);
  });

  it.each(['shop.example', 'ftp://shop.example', 'https://shop.example/cards', 'https://user:pw@shop.example', 'https://shop.example/?q=1', 'javascript:alert(1)', ''])(
    '%s is not an origin',
    (text) => {
      expect(normalizeOrigin(text)).toBeNull();
    },
  );

  it('allows any origin without a list, and only listed ones with one', () => {
    expect(originAllowed([], 'https://anyone.example')).toBe(true);
    expect(originAllowed(['https://shop.example'], 'https://SHOP.example')).toBe(true);
    expect(originAllowed(['https://shop.example'], 'https://evil.example')).toBe(false);
    expect(originAllowed(['https://shop.example'], 'null')).toBe(false);
    expect(originAllowed(['https://shop.example'], undefined)).toBe(true);
  });
});
