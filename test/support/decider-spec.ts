// Given/when/then for deciders: given past events, when a command, then new events or an error.
// The domain entry's test door (kept out of the build): `@app/testing/support/decider-spec`.
import { type Decider, type DomainEvent, DomainError, type DomainErrorCode, fold } from '@app/platform/domain';

export function deciderSpec<TCommand, TEvent extends DomainEvent, TState>(decider: Decider<TCommand, TEvent, TState>) {
  return {
    given(events: readonly TEvent[] = []) {
      return {
        when(command: TCommand) {
          const run = (): TEvent[] => decider.decide(command, fold(decider, events));
          return {
            then(expected: readonly TEvent[]): void {
              expect(run()).toEqual(expected);
            },
            thenThrows(code: DomainErrorCode, messagePart?: string): void {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect((caught as DomainError).code).toBe(code);
              if (messagePart) expect((caught as DomainError).message).toContain(messagePart);
            },
          };
        },
      };
    },
  };
}
