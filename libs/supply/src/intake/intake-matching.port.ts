// What intake needs from matching, provided by the matching context (MatchingModule, global):
// after a push has appended its items, how many open buyer requests they matched.

export const INTAKE_MATCHING = Symbol('INTAKE_MATCHING');

export interface IntakeMatching {
  /**
   * Waits (bounded) until reverse matching has processed the log up to `position`, then answers
   * how many distinct buyer requests of the workspace gained full matches among the given items.
   */
  matchedBuyerRequests(workspaceId: string, inventoryItemIds: readonly string[], position: number): Promise<number>;
}
