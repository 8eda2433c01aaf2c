import { escapeHostile, findHostileText } from './hostile-text';
import { ZodPipe } from './zod.pipe';
import { z } from 'zod';
import { ApiError } from './api-error';

describe('findHostileText: the one rule for text in requests', () => {
  it.each([
    ['\u0000', 'U+0000 (a control character)'],
    ['\u0007', 'U+0007 (a control character)'],
    ['\u007F', 'U+007F (a control character)'],
    ['\u009B', 'U+009B (a control character)'],
    ['\u202A', 'U+202A (a bidirectional control character)'],
    ['\u202E', 'U+202E (a bidirectional control character)'],
    ['\u2066', 'U+2066 (a bidirectional control character)'],
    ['\u2069', 'U+2069 (a bidirectional control character)'],
    ['\uD83D', 'U+D83D (a lone surrogate: not valid Unicode text)'],
    ['\uDE00', 'U+DE00 (a lone surrogate: not valid Unicode text)'],
  ])('finds %j', (char, found) => {
    expect(findHostileText(`a${char}b`)).toEqual({ path: '', found, key: false });
  });

  it.each(['plain', 'tab\there', 'lines\r\nand\nmore', 'Pokémon ポケモン', 'emoji 😀 and 👩‍👩‍👧 (ZWJ)', 'zero\u200Bwidth', 'مرحبا \u200F', 'soft\u00ADhyphen'])(
    'accepts %j',
    (text) => {
      expect(findHostileText(text)).toBeUndefined();
    },
  );

  it('names the path of the first offender in nested objects and arrays, as zod spells paths', () => {
    expect(findHostileText({ a: 'ok', rows: [{ name: 'fine' }, { name: 'bad\u0000' }] })).toEqual({ path: 'rows.1.name', found: expect.any(String), key: false });
    expect(findHostileText({ n: 1, b: true, z: null, list: [1, 'x'] })).toBeUndefined();
  });

  it.each([
    ['NUL', '\u0000', 'U+0000 (a control character)'],
    ['a right-to-left override', '\u202E', 'U+202E (a bidirectional control character)'],
    ['a left-to-right isolate', '\u2066', 'U+2066 (a bidirectional control character)'],
  ])('finds %s in a key, naming the path to the key with the character escaped', (_label, char, found) => {
    const hex = found.slice(2, 6);
    expect(findHostileText([{ 'Card Name': 'ok' }, { [`Card${char}Name`]: 'Pikachu' }])).toEqual({ path: `1.Card\\u${hex}Name`, found, key: true });
    expect(findHostileText({ [`li${char}mit`]: '5' })).toEqual({ path: `li\\u${hex}mit`, found, key: true });
    expect(findHostileText({ buyer: { [`x${char}`]: null } })).toEqual({ path: `buyer.x\\u${hex}`, found, key: true });
  });

  it('checks a key before its value, in document order', () => {
    expect(findHostileText({ 'a\u0000': 'b\u202E' })).toMatchObject({ path: 'a\\u0000', key: true });
    expect(findHostileText({ a: 'b\u202E', 'c\u0000': 1 })).toMatchObject({ path: 'a', key: false });
    expect(findHostileText({ 'tab\tkey': 1, 'line\nkey': 'x', 'Pokémon ポケモン': true })).toBeUndefined();
  });

  it('escapes every refused character of a text for display', () => {
    expect(escapeHostile('a\u0000b\u202Ec\uD800d\te')).toBe('a\\u0000b\\u202Ec\\uD800d\te');
  });

  it('refuses a hostile key through ZodPipe, saying it is a key and never echoing the character', () => {
    const error = thrown(() => new ZodPipe(z.array(z.record(z.string(), z.string()))).transform([{ 'Card\u202EName': 'x' }]));
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Invalid body key "0.Card\\u202EName": the key itself contains U+202E (a bidirectional control character); remove it',
      details: { issues: [{ path: '0.Card\\u202EName', message: 'the key itself contains U+202E (a bidirectional control character); remove it' }] },
    });
    const { message, details } = error as ApiError;
    expect(JSON.stringify({ message, details })).not.toContain('\u202E');
    // A query parameter's name: refused even where the schema would have dropped the unknown name.
    const query = thrown(() => new ZodPipe(z.object({ limit: z.string().optional() }), 'query').transform({ 'li\u0000mit': '5' }));
    expect(query).toMatchObject({ status: 400, details: { issues: [{ path: 'li\\u0000mit', message: expect.stringContaining('U+0000') }] } });
  });

  it('is applied by ZodPipe before the schema, for every part', () => {
    const pipe = new ZodPipe(z.strictObject({ name: z.string() }), 'query');
    const error = (() => {
      try {
        pipe.transform({ name: 'x\u202Ey' });
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: 'Invalid query field "name": contains U+202E (a bidirectional control character); remove it',
      details: { issues: [{ path: 'name', message: 'contains U+202E (a bidirectional control character); remove it' }] },
    });
  });
});

describe('findHostileText on deep input', () => {
  it('walks a body nested 100,000 deep without exhausting the stack', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}"x\\u0000"${']'.repeat(100_000)}`) as unknown;
    expect(findHostileText(deep)?.path.split('.')).toHaveLength(100_000);
    const deepObject = JSON.parse(`${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`) as unknown;
    expect(findHostileText(deepObject)).toBeUndefined();
  });
});

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}
