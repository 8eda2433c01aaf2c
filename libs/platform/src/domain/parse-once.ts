// Reading a recorded event into its context's typed form once. A batch hands the same RecordedEvent
// objects to every projection of its lane (and a write hands its events to its decider and its
// inline projections), each reading them through its context's parser: the first read validates
// (zod), the later ones get the same result. The typed event is shared, so no reader may change it
// (deciders and projections are pure).
import type { RecordedEvent } from '../event-store/event-store.port';

export function parseOnce<E, R extends object = RecordedEvent>(parse: (event: R) => E): (event: R) => E {
  const parsed = new WeakMap<R, E>();
  return (event) => {
    if (parsed.has(event)) return parsed.get(event) as E;
    const typed = parse(event);
    parsed.set(event, typed);
    return typed;
  };
}
