import { MAX_SUGGESTIONS, suggestCards } from './card-suggestions';

describe('card suggestions', () => {
  it('suggests names starting with what was typed first, shortest first, with their sets', () => {
    const found = suggestCards('chari');
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(MAX_SUGGESTIONS);
    expect(found[0].cardName).toBe('Charizard');
    expect(found[0].sets.length).toBeGreaterThan(1);
    expect(found[0].sets.length).toBeLessThanOrEqual(12);
    expect(suggestCards('Dark Charizard')[0]).toEqual({ cardName: 'Dark Charizard', sets: ['Team Rocket'] });
  });

  it('also finds a word inside a name, and a typo', () => {
    expect(suggestCards('charizard', 20).map((s) => s.cardName)).toEqual(expect.arrayContaining(['Charizard', 'Dark Charizard']));
    expect(suggestCards('charizrd').map((s) => s.cardName)).toContain('Charizard');
  });

  it('ignores case and accents, and suggests nothing below two characters', () => {
    expect(suggestCards('PIKACHU')[0].cardName).toBe('Pikachu');
    expect(suggestCards('p')).toEqual([]);
    expect(suggestCards('   ')).toEqual([]);
  });
});
