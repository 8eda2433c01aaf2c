import { TurnBatcher } from './turn-batcher';

describe('TurnBatcher', () => {
  it('hands the items of one turn to one flush, and each caller gets its own outcome', async () => {
    const flushes: number[][] = [];
    const batcher = new TurnBatcher<number, number>((items) => {
      flushes.push(items);
      return items.map((n) => (n < 0 ? { ok: false, error: new Error(`negative ${n}`) } : { ok: true, value: n * 10 }));
    });
    const first = await Promise.allSettled([batcher.add(1), batcher.add(-2), batcher.add(3)]);
    expect(flushes).toEqual([[1, -2, 3]]);
    expect(first.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([10, 'negative -2', 30]);
    // A later turn is a new batch.
    expect(await batcher.add(4)).toBe(40);
    expect(flushes).toEqual([[1, -2, 3], [4]]);
  });

  it('fails every item of the batch when the flush throws, then goes on', async () => {
    let broken = true;
    const batcher = new TurnBatcher<string, string>(async (items) => {
      if (broken) throw new Error('store closed');
      return items.map((value) => ({ ok: true, value }));
    });
    const outcomes = await Promise.allSettled([batcher.add('a'), batcher.add('b')]);
    expect(outcomes.map((o) => o.status === 'rejected' && (o.reason as Error).message)).toEqual(['store closed', 'store closed']);
    broken = false;
    expect(await batcher.add('c')).toBe('c');
  });
});
