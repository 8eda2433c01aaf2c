// A match pack: the stored result of one match run, written once. Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import type { MatchCompleted, MatchPackEvent } from './match-pack.events';

export interface CompleteMatchRun {
  type: 'CompleteMatchRun';
  pack: MatchCompleted;
}

export type MatchPackCommand = CompleteMatchRun;

export type MatchPackState = { status: 'none' } | { status: 'completed'; matchPackId: string };

export const matchPackDecider: Decider<MatchPackCommand, MatchPackEvent, MatchPackState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    if (state.status !== 'none') throw new DomainError('CONFLICT', `Match pack ${state.matchPackId} already exists`);
    return [{ type: 'match.completed', data: command.pack }];
  },

  evolve(_state, event) {
    return { status: 'completed', matchPackId: event.data.matchPackId };
  },
};
