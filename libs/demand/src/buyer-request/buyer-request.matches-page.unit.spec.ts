// A request's matches page in memory (its document holds them all): best first, no gaps or
// duplicates across pages, and the read store's cursors.
import { encodeCursor, InvalidCursorError } from '@app/platform';

import type { MatchEntry } from './buyer-request-matches.projection';
import { pageOfMatches } from './buyer-request.queries';

const entry = (id: string, score: number): MatchEntry => ({
  id,
  inventoryItemId: `inv_${id}`,
  kind: 'full',
  score,
  factors: [],
  reasons: [],
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:00.000Z',
});

describe('pageOfMatches', () => {
  const matches = [entry('mt_a', 0.5), entry('mt_b', 0.9), entry('mt_c', 0.9), entry('mt_d', 0.7), entry('mt_e', 0.1)];

  it('answers best first (score, then id, descending), with the request named on each match', () => {
    const page = pageOfMatches('br_1', matches, 10);
    expect(page.items.map((m) => m.id)).toEqual(['mt_c', 'mt_b', 'mt_d', 'mt_a', 'mt_e']);
    expect(page.items[0].buyerRequestId).toBe('br_1');
    expect(page.nextCursor).toBeNull();
  });

  it.each([1, 2, 3, 4, 5])('pages of %i cover every match once, in order', (limit) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 10; pages += 1) {
      const page = pageOfMatches('br_1', matches, limit, cursor);
      seen.push(...page.items.map((m) => m.id));
      if (page.nextCursor === null) break;
      cursor = page.nextCursor;
    }
    expect(seen).toEqual(['mt_c', 'mt_b', 'mt_d', 'mt_a', 'mt_e']);
  });

  it('takes the read store\'s cursor (score and id of the last match seen), and refuses another', () => {
    expect(pageOfMatches('br_1', matches, 2, encodeCursor([0.9, 'mt_b'])).items.map((m) => m.id)).toEqual(['mt_d', 'mt_a']);
    expect(() => pageOfMatches('br_1', matches, 2, encodeCursor(['x', 1]))).toThrow(InvalidCursorError);
    expect(() => pageOfMatches('br_1', matches, 2, 'not a cursor')).toThrow(InvalidCursorError);
  });

  it('answers an empty page for a request without matches', () => {
    expect(pageOfMatches('br_1', [], 10)).toEqual({ items: [], nextCursor: null });
  });
});
