// A decider is the whole behaviour of an aggregate as three pure values (no I/O, no Nest).
export interface DomainEvent<TType extends string = string, TData = unknown> {
  type: TType;
  data: TData;
}

export interface Decider<TCommand, TEvent extends DomainEvent, TState> {
  initialState: TState;
  decide(command: TCommand, state: TState): TEvent[];
  evolve(state: TState, event: TEvent): TState;
}

export function fold<TEvent extends DomainEvent, TState>(
  decider: Pick<Decider<unknown, TEvent, TState>, 'initialState' | 'evolve'>,
  events: readonly TEvent[],
): TState {
  return events.reduce(decider.evolve, decider.initialState);
}
