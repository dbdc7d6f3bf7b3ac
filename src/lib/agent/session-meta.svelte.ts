import type { SessionMeta } from "../storage/records.ts";

/**
 * The session's metadata (title, settings, revision, counts) as this tab knows it: as it last stored it or
 * another tab announced it. Made before the parts that read it (the writer creates the session's record
 * from it when that failed at first); its one writer is the `Replica`, which keeps it in step with the
 * other tabs.
 */
export class SessionMetaState {
  #meta = $state.raw<SessionMeta>() as SessionMeta;

  constructor(meta: SessionMeta) {
    this.#meta = meta;
  }

  get current(): SessionMeta {
    return this.#meta;
  }

  /** Only the replica calls this: the metadata it stored or adopted. */
  replace(meta: SessionMeta): void {
    this.#meta = meta;
  }
}
