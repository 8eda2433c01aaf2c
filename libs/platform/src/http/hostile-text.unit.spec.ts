import { findHostileText } from './hostile-text';
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
    expect(findHostileText(`a${char}b`)).toEqual({ path: '', found });
  });

  it.each(['plain', 'tab\there', 'lines\r\nand\nmore', 'Pokémon ポケモン', 'emoji 😀 and 👩‍👩‍👧 (ZWJ)', 'zero\u200Bwidth', 'مرحبا \u200F', 'soft\u00ADhyphen'])(
    'accepts %j',
    (text) => {
      expect(findHostileText(text)).toBeUndefined();
    },
  );

  it('names the path of the first offender in nested objects and arrays, as zod spells paths', () => {
    expect(findHostileText({ a: 'ok', rows: [{ name: 'fine' }, { name: 'bad\u0000' }] })).toEqual({ path: 'rows.1.name', found: expect.any(String) });
    expect(findHostileText({ n: 1, b: true, z: null, list: [1, 'x'] })).toBeUndefined();
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
