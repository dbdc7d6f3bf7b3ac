import type { CallRecord, SessionMeta } from "../storage/records.ts";
import type { WriterStatus } from "../storage/session-writer.ts";

/**
 * What the parts of an open session tell each other, by name. A part that learns something announces it
 * here; the parts that act on it subscribe once every part exists. So no part holds a closure over a
 * part made after it, and what connects to what is read in one place (`ChatSession`'s wiring).
 */
export interface SessionEventMap {
  /** The writer stored entries of this tab: the session's metadata after the write. */
  written: { meta: SessionMeta };
  /** This tab stored a change of the session's settings: its metadata now. */
  settingsStored: { meta: SessionMeta };
  /** A model call of this session was recorded (the metadata counts its bytes and sequence). */
  callRecorded: { call: CallRecord; meta: SessionMeta };
  /** Another tab changed the session's metadata (settings, title, recorded calls), and this tab took it. */
  metaAdopted: { meta: SessionMeta; previous: SessionMeta };
  /** How storing the session goes changed: what is unsaved, and the last failure. */
  storageStatus: { status: WriterStatus };
}

export type SessionEventType = keyof SessionEventMap;
export type SessionEventHandler<K extends SessionEventType> = (event: SessionEventMap[K]) => void;

type HandlerLists = { [K in SessionEventType]: SessionEventHandler<K>[] };

/**
 * A session's typed event hub: synchronous, in the order handlers subscribed. A handler that throws does
 * not keep the others from hearing the event; its error is reported once they have.
 */
export class SessionEvents {
  readonly #handlers: HandlerLists = {
    written: [],
    settingsStored: [],
    callRecorded: [],
    metaAdopted: [],
    storageStatus: [],
  };

  /** Hear every event of this type from now on; the returned function stops it. */
  on<K extends SessionEventType>(type: K, handler: SessionEventHandler<K>): () => void {
    const list: SessionEventHandler<K>[] = this.#handlers[type];
    list.push(handler);
    return () => {
      const at = list.indexOf(handler);
      if (at >= 0) list.splice(at, 1);
    };
  }

  emit<K extends SessionEventType>(type: K, event: SessionEventMap[K]): void {
    const list: SessionEventHandler<K>[] = this.#handlers[type];
    const errors: unknown[] = [];
    // A copy: a handler that unsubscribes while the event is delivered does not skip the next one.
    for (const handler of [...list]) {
      try {
        handler(event);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} handlers of "${type}" failed`);
  }

  /** Forget every handler (the session is closed). */
  clear(): void {
    for (const list of Object.values(this.#handlers)) list.length = 0;
  }
}
