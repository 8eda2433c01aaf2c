// An automation run: started (the claim: only once per rule and event), then finished once with
// its outcome — succeeded (the events it caused), skipped (why) or failed (the error). Finishing a
// finished run is a no-op. Pure.
import { type Decider, DomainError } from '@app/platform/domain';

import type { AutomationRunEvent, AutomationRunStarted, RunError, RunOutcome } from './automation-run.events';

export interface StartRun {
  type: 'StartRun';
  run: Omit<AutomationRunStarted, 'startedAt'>;
  now: Date;
}
export type RunResult = { outcome: 'succeeded'; effect: string; caused: Array<{ id: string; type: string }> } | { outcome: 'skipped'; reason: string } | { outcome: 'failed'; error: RunError };
export interface FinishRun {
  type: 'FinishRun';
  result: RunResult;
  now: Date;
}
export type RunCommand = StartRun | FinishRun;

export type RunState = { status: 'none' } | { status: RunOutcome; runId: string };

export const automationRunDecider: Decider<RunCommand, AutomationRunEvent, RunState> = {
  initialState: { status: 'none' },

  decide(command, state) {
    const at = command.now.toISOString();
    switch (command.type) {
      case 'StartRun':
        if (state.status !== 'none') throw new DomainError('CONFLICT', `Run ${state.runId} already claimed this event`, { runId: state.runId });
        return [{ type: 'automation_run.started', data: { ...command.run, startedAt: at } }];
      case 'FinishRun': {
        if (state.status === 'none') throw new DomainError('NOT_FOUND', 'No run to finish');
        if (state.status !== 'running') return [];
        const { result } = command;
        if (result.outcome === 'succeeded') return [{ type: 'automation_run.succeeded', data: { effect: result.effect, caused: result.caused, finishedAt: at } }];
        if (result.outcome === 'skipped') return [{ type: 'automation_run.skipped', data: { reason: result.reason, finishedAt: at } }];
        return [{ type: 'automation_run.failed', data: { error: result.error, finishedAt: at } }];
      }
      default: {
        const never: never = command;
        throw new Error(`Unknown command ${JSON.stringify(never)}`);
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'automation_run.started':
        return { status: 'running', runId: event.data.runId };
      case 'automation_run.succeeded':
        return state.status === 'none' ? state : { ...state, status: 'succeeded' };
      case 'automation_run.skipped':
        return state.status === 'none' ? state : { ...state, status: 'skipped' };
      case 'automation_run.failed':
        return state.status === 'none' ? state : { ...state, status: 'failed' };
      default:
        return state;
    }
  },
};
