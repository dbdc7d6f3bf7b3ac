import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message, Usage } from "@earendil-works/pi-ai";
import type { Captured } from "../../shared/api-types.ts";
import type { LiveCall, PiAbout } from "../../shared/live/live-protocol.ts";
import { pathTo, type SessionEntry } from "../messages/entries.ts";
import { projectSession, type SessionProjection } from "../model-view/session-projection.ts";
import type { NewCall } from "../storage/records.ts";
import { contentText } from "@earendil-works/pi-ai";

/**
 * What a live pi's session and calls become in the page: a stored session like an imported pi file (its
 * header kept, every entry as pi wrote it, so that an export to pi's format is pi's own file), and call
 * records like the page's own, with pi's transcript beside the model view.
 */

const NAME_LENGTH = 48;

/** "pi · <folder> · <session name>": pi's name for the session, else its first prompt, as pi lists it. */
export function liveTitle(about: Pick<PiAbout, "cwd">, entries: readonly SessionEntry[]): string {
  const folder =
    about.cwd
      .replace(/[\\/]+$/, "")
      .split(/[\\/]/)
      .at(-1) ||
    about.cwd ||
    "pi";
  return `pi · ${folder} · ${liveName(entries)}`;
}

function liveName(entries: readonly SessionEntry[]): string {
  const info = entries.findLast((entry) => entry.type === "session_info");
  const named = info?.type === "session_info" ? info.name?.trim() : undefined;
  if (named) return named;
  for (const entry of entries) {
    if (entry.type !== "message" || entry.message.role !== "user") continue;
    const text = contentText(entry.message.content, " ").replace(/\s+/g, " ").trim();
    if (text) return text.length > NAME_LENGTH ? `${text.slice(0, NAME_LENGTH - 1)}…` : text;
  }
  return "new session";
}

/**
 * JSON with its object keys sorted, so that two messages compare equal whatever order their fields were
 * written in (pi's transcript is a copy of its state; the page's facts are read from pi's entries).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => {
    if (field === null || typeof field !== "object" || Array.isArray(field)) return field;
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(field).sort()) sorted[key] = (field as Record<string, unknown>)[key];
    return sorted;
  });
}

/**
 * pi's transcript for a call beside the page's own projection of the entries it came from: which
 * transcript message is which fact, and where they differ. A difference is where an extension rewrote
 * the context (a `context` or `context_with_system` handler): a message it added or changed has no fact,
 * and a fact it removed was not sent.
 */
export interface TranscriptAlignment {
  /** For each transcript message, the fact (position on the path) it is, or null when none is. */
  factOf: (number | null)[];
  /** The projection's context messages that the transcript does not have, by position in the context. */
  notSent: number[];
  /** The projection this was compared with. */
  projection: SessionProjection;
}

export function alignTranscript(
  transcript: readonly AgentMessage[],
  entries: readonly SessionEntry[] | ReadonlyMap<string, SessionEntry>,
  leafId: string | null,
): TranscriptAlignment {
  const projection = projectSession(pathTo(entries, leafId));
  const context = projection.context.map(canonicalJson);
  const factOf: (number | null)[] = [];
  const matched = new Set<number>();
  let cursor = 0;
  for (const message of transcript) {
    const json = canonicalJson(message);
    // In order: the next context message that is this one. A message an extension inserted matches none.
    let found = -1;
    for (let index = cursor; index < context.length; index++) {
      if (context[index] === json) {
        found = index;
        break;
      }
    }
    if (found === -1) {
      factOf.push(null);
      continue;
    }
    matched.add(found);
    cursor = found + 1;
    factOf.push(projection.contextFacts[found] ?? null);
  }
  const notSent = context.flatMap((_, index) => (matched.has(index) ? [] : [index]));
  return { factOf, notSent, projection };
}

const ZERO_USAGE: Usage = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: 0,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
};

function isUsage(value: unknown): value is Usage {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Usage).input === "number" &&
    typeof (value as Usage).output === "number"
  );
}

/**
 * A live call as the page records calls: the summary the calls list shows and the body with its layers.
 * Each model-view message is traced to its fact through pi's transcript (the extension says which
 * transcript message each came from), where the transcript matches the session's entries.
 */
export function liveCallRecord(
  call: LiveCall,
  entries: readonly SessionEntry[] | ReadonlyMap<string, SessionEntry>,
): NewCall {
  const transcript = call.transcript as Captured<AgentMessage[]>;
  const messages = call.messages as Captured<Message[]>;
  let sources: (string | null)[] = [];
  if (transcript.kept === "all" && messages.kept === "all") {
    const alignment = alignTranscript(transcript.value, entries, call.leafId);
    const entryOf = (fact: number | null) =>
      fact === null ? null : (alignment.projection.factIds[fact] ?? null);
    sources = messages.value.map((_, index) => {
      const from = call.messageSources?.[index];
      return from === undefined ? null : entryOf(alignment.factOf[from] ?? null);
    });
  }
  const usage = isUsage(call.outcome.usage) ? call.outcome.usage : ZERO_USAGE;
  const streamedMs =
    call.timing.firstTokenMs === undefined ? undefined : call.timing.durationMs - call.timing.firstTokenMs;
  const outputTokensPerSecond =
    streamedMs !== undefined && streamedMs > 0 && usage.output > 0
      ? (usage.output * 1000) / streamedMs
      : undefined;
  return {
    summary: {
      id: call.id,
      startedAt: call.startedAt,
      provider: call.provider,
      modelId: call.modelId,
      api: call.api,
      options: call.thinkingLevel ? { thinkingLevel: call.thinkingLevel } : {},
      messageCount: messages.kept === "all" ? messages.value.length : 0,
      leafId: call.leafId,
      ...(call.replyEntryId ? { replyEntryId: call.replyEntryId } : {}),
      outcome: {
        stopReason: call.outcome.stopReason,
        usage,
        ...(call.outcome.errorMessage ? { errorMessage: call.outcome.errorMessage } : {}),
      },
      timing: {
        ...(call.timing.firstTokenMs !== undefined ? { firstTokenMs: call.timing.firstTokenMs } : {}),
        durationMs: call.timing.durationMs,
        ...(outputTokensPerSecond !== undefined ? { outputTokensPerSecond } : {}),
      },
      capture: {
        messages: messages.kept,
        payload: call.payload.kept,
        note: "recorded by pi's extension, from pi's own hooks",
      },
    },
    body: {
      messages,
      sources,
      payload: call.payload,
      pi: { transcript, ...(call.response ? { response: call.response } : {}) },
    },
  };
}
