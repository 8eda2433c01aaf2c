import { CsvError, parseCsv } from './intake.csv';

describe('intake CSV reader', () => {
  it('reads a header row and records', () => {
    expect(parseCsv('card,set,price\nCharizard,Base,450.50\nBlastoise,Base,325\n')).toEqual({
      header: ['card', 'set', 'price'],
      rows: [
        { card: 'Charizard', set: 'Base', price: '450.50' },
        { card: 'Blastoise', set: 'Base', price: '325' },
      ],
    });
  });

  it.each([
    ['CRLF', 'a,b\r\n1,2\r\n3,4\r\n'],
    ['LF', 'a,b\n1,2\n3,4\n'],
    ['CR', 'a,b\r1,2\r3,4'],
    ['no final line end', 'a,b\n1,2\n3,4'],
    ['a BOM', '\uFEFFa,b\n1,2\n3,4\n'],
    ['blank lines', '\na,b\n\n1,2\r\n\r\n3,4\n\n'],
  ])('reads %s', (_label, text) => {
    expect(parseCsv(text)).toEqual({ header: ['a', 'b'], rows: [{ a: '1', b: '2' }, { a: '3', b: '4' }] });
  });

  it('reads quoted fields: delimiters, escaped quotes and line breaks inside', () => {
    const text = 'name,notes\n"Mewtwo & Mew-GX","1st, ""shadowless"""\n"Pikachu","line one\r\nline two"\n';
    expect(parseCsv(text).rows).toEqual([
      { name: 'Mewtwo & Mew-GX', notes: '1st, "shadowless"' },
      { name: 'Pikachu', notes: 'line one\r\nline two' },
    ]);
  });

  it('keeps empty fields, including quoted empty ones and a trailing empty field', () => {
    expect(parseCsv('a,b,c\n1,,\n"",2,""\n').rows).toEqual([
      { a: '1', b: '', c: '' },
      { a: '', b: '2', c: '' },
    ]);
  });

  it('keeps unicode as is', () => {
    expect(parseCsv('name\nGardevoir ex δ\nUmbreon ★\nPokémon\n').rows.map((r) => r.name)).toEqual(['Gardevoir ex δ', 'Umbreon ★', 'Pokémon']);
  });

  it('detects a semicolon or tab delimiter from the header', () => {
    expect(parseCsv('card;price\nCharizard;"1.234,50"\n').rows).toEqual([{ card: 'Charizard', price: '1.234,50' }]);
    expect(parseCsv('card\tprice\nCharizard\t12\n').rows).toEqual([{ card: 'Charizard', price: '12' }]);
    // A comma inside a quoted header does not make it the delimiter.
    expect(parseCsv('"card, name";price\nCharizard;12\n').header).toEqual(['card, name', 'price']);
  });

  it('names surplus fields by position and fills missing ones with nothing', () => {
    expect(parseCsv('a,b\n1,2,3\n4\n').rows).toEqual([{ a: '1', b: '2', 'column 3': '3' }, { a: '4' }]);
  });

  it('keeps both of two columns with the same name', () => {
    expect(parseCsv('name,Name\nx,y\n')).toEqual({ header: ['name', 'Name (2)'], rows: [{ name: 'x', 'Name (2)': 'y' }] });
  });

  it('is lenient with a stray quote inside an unquoted field', () => {
    expect(parseCsv('name,size\nBig 12" poster,1\n').rows).toEqual([{ name: 'Big 12" poster', size: '1' }]);
  });

  it('answers a header only with no rows', () => {
    expect(parseCsv('a,b\n')).toEqual({ header: ['a', 'b'], rows: [] });
  });

  it.each([
    ['an empty text', ''],
    ['only blank lines', '\r\n\n'],
    ['an unterminated quote', 'a,b\n1,"open\n2,3\n'],
    ['a header naming nothing', ',,\n1,2,3\n'],
  ])('refuses %s with the line', (_label, text) => {
    expect(() => parseCsv(text)).toThrow(CsvError);
  });

  it('says where an unterminated quote starts', () => {
    expect(() => parseCsv('a,b\n1,2\n3,"x\n\n')).toThrow('CSV line 3');
  });

  // How long it takes is measured by `node bench/micro.mjs` (csv), not bounded here.
  it('reads 10,000 rows', () => {
    const text = ['card,set,condition,price,qty', ...Array.from({ length: 10_000 }, (_, i) => `Card ${i},Base,NM,"$1,${i}.50",1`)].join('\r\n');
    const { rows } = parseCsv(text);
    expect(rows).toHaveLength(10_000);
    expect(rows[9999]).toEqual({ card: 'Card 9999', set: 'Base', condition: 'NM', price: '$1,9999.50', qty: '1' });
  });
});
