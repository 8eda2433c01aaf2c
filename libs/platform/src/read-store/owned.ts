// "One document of this workspace, or 404": every GET by id and every load before a write asks it
// the same way, so another workspace's document is always answered exactly like a missing one.
import { DomainError } from '../domain/domain-error';
import type { Collection, Doc } from './read-store.port';

/** A document that belongs to a workspace. */
export interface OwnedDoc extends Doc {
  workspaceId: string;
}

/** The document when it exists and belongs to `workspaceId`; null otherwise. */
export async function findOwned<D extends OwnedDoc>(collection: Collection<D>, workspaceId: string, id: string): Promise<D | null> {
  const doc = await collection.get(id);
  return doc && doc.workspaceId === workspaceId ? doc : null;
}

/** The document of this workspace, or NOT_FOUND (`No <what> with id <id>`). */
export async function getOwned<D extends OwnedDoc>(collection: Collection<D>, workspaceId: string, id: string, what: string): Promise<D> {
  const doc = await findOwned(collection, workspaceId, id);
  if (!doc) throw new DomainError('NOT_FOUND', `No ${what} with id ${id}`);
  return doc;
}
