import { SCHEMA_VERSION, type SessionMeta } from "./records.ts";
import { NEW_SESSION_TITLE } from "./session-store.ts";

/** A new, empty session's metadata for tests, with the fields a test cares about given. */
export function testSessionMeta(id: string, patch: Partial<SessionMeta> = {}): SessionMeta {
  return {
    schema: SCHEMA_VERSION,
    id,
    title: NEW_SESSION_TITLE,
    titleIsCustom: false,
    createdAt: 1,
    updatedAt: 1,
    messageCount: 0,
    nextSeq: 0,
    revision: 0,
    leafId: null,
    settings: {},
    ...patch,
  };
}
