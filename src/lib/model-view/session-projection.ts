import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { CompactionEntry, ContextEditEntry, SessionEntry } from "../messages/entries.ts";
import { createBranchSummary, createCompactionSummary } from "../messages/factories.ts";
import type { FactContent } from "../messages/kinds/kind.ts";
import { loadedKindOf } from "../messages/kinds/loaded.ts";

/**
 * From the session tree to what the model reads, the way pi's coding agent builds it
 * (`SessionManager.buildSessionProjection` in pi 1.6): the entries on the path to the leaf; with a
 * compaction, its summary first, then the entries from its `firstKeptEntryId` on and everything after it;
 * context edits replace or omit the content of the entries they target. Unlike pi, every step keeps its
 * provenance, so each fact can say why it reaches the model as it does, or not at all.
 */

/** Why a fact is not in the context as it is. */
export type ContextFate =
  | { kind: "in" }
  | { kind: "compacted" }
  /** A system message before a compaction that recorded the prompt in force: the model reads that copy. */
  | { kind: "carried" }
  | { kind: "edited"; edit: ContextEditEntry; original: AgentMessage; replacement: AgentMessage }
  | { kind: "omitted"; edit: ContextEditEntry; failedAttempt: boolean };

/** The two fates that carry nothing of their own, shared by every fact that has them. */
export const IN: ContextFate = Object.freeze({ kind: "in" });
const COMPACTED: ContextFate = Object.freeze({ kind: "compacted" });
const CARRIED: ContextFate = Object.freeze({ kind: "carried" });

export interface SessionProjection {
  /** Facts in path order: the messages the path's entries stand for, before compaction and edits. */
  facts: readonly AgentMessage[];
  /** The entry behind each fact. */
  factIds: string[];
  /** What each fact contributes to the context (parallel to the facts). */
  fates: ContextFate[];
  /** The messages the next request is built from, in order (the input of `convertToLlm`). */
  context: readonly AgentMessage[];
  /** The fact each context message comes from (a compaction's recorded system message: the compaction). */
  contextFacts: Int32Array;
  /** Entries on the path that are not facts (model and thinking changes, labels, edits, names, custom state). */
  markers: { entry: SessionEntry; afterFact: number }[];
  /** The model and thinking level the path ends with, as pi reads them (null when it sets none). */
  model: { provider: string; modelId: string } | null;
  thinkingLevel: string;
}

/**
 * The fact an entry stands for, as pi's `sessionEntryToContextMessages` makes it. Cached per entry object:
 * entries are never changed in place, so the same entry always gives the very same message.
 */
const factCache = new WeakMap<SessionEntry, AgentMessage | null>();

export function factOf(entry: SessionEntry): AgentMessage | undefined {
  // Most entries are messages that are their own fact: nothing to build, so nothing to cache (a session
  // just opened would otherwise add every one of its entries to the cache).
  if (entry.type === "message" && !lacksContent(entry.message)) return entry.message;
  const hit = factCache.get(entry);
  if (hit !== undefined) return hit ?? undefined;
  const fact = buildFact(entry);
  factCache.set(entry, fact ?? null);
  return fact;
}

/**
 * What pi reads for the content of a message that has none (session files are not validated by pi): its
 * kind's say (the model's roles read it as empty); undefined when the message has content, or its role
 * has no such reading.
 */
function missingContentOf(message: AgentMessage): (() => unknown) | undefined {
  if ((message as { content?: unknown }).content != null) return undefined;
  return loadedKindOf(message).fields.content?.readAs?.missing;
}

function lacksContent(message: AgentMessage): boolean {
  return missingContentOf(message) !== undefined;
}

function buildFact(entry: SessionEntry): AgentMessage | undefined {
  // The entry's time is parsed only for the entries that make a message of their own: a session just
  // opened builds the facts of tens of thousands of entries, most of them messages with their own.
  switch (entry.type) {
    case "message": {
      const message = entry.message;
      const missing = missingContentOf(message);
      return missing ? ({ ...message, content: missing() } as AgentMessage) : message;
    }
    case "custom_message":
      // pi's createCustomMessage: `details` is there even when the entry has none.
      return {
        role: "custom",
        customType: entry.customType,
        content: entry.content ?? [],
        display: entry.display,
        details: entry.details,
        timestamp: Date.parse(entry.timestamp),
      };
    case "branch_summary":
      return entry.summary
        ? createBranchSummary(entry.summary, entry.fromId, Date.parse(entry.timestamp))
        : undefined;
    case "compaction":
      return createCompactionSummary(
        entry.summary,
        // Absent in some files: pi's summary keeps it so (see CompactionSummaryMessage).
        entry.tokensBefore as number,
        Date.parse(entry.timestamp),
      );
    // The others make no message: they change the model, the level, a label, or hold an extension's state.
    case "thinking_level_change":
    case "model_change":
    case "usage":
    case "custom":
    case "label":
    case "session_info":
    case "context_edit":
    case "unknown":
      return undefined;
  }
}

/** A context edit's new content put into a message, as pi's `projectContextEntry` does. */
function edited(
  message: AgentMessage,
  replacement: NonNullable<ContextEditEntry["replacement"]>,
): AgentMessage {
  if (
    message.role !== "user" &&
    message.role !== "assistant" &&
    message.role !== "toolResult" &&
    message.role !== "custom"
  )
    return message;
  const content =
    (message.role === "assistant" || message.role === "toolResult") && typeof replacement.content === "string"
      ? [{ type: "text", text: replacement.content }]
      : replacement.content;
  return { ...message, content } as AgentMessage;
}

const editCache = new WeakMap<ContextEditEntry, WeakMap<AgentMessage, AgentMessage>>();

function editedOnce(message: AgentMessage, edit: ContextEditEntry): AgentMessage {
  const replacement = edit.replacement;
  if (!replacement) return message;
  let byMessage = editCache.get(edit);
  if (!byMessage) {
    byMessage = new WeakMap();
    editCache.set(edit, byMessage);
  }
  let result = byMessage.get(message);
  if (!result) {
    result = edited(message, replacement);
    byMessage.set(message, result);
  }
  return result;
}

function sameContent(a: AgentMessage, b: AgentMessage): boolean {
  return (
    JSON.stringify((a as { content?: unknown }).content) ===
    JSON.stringify((b as { content?: unknown }).content)
  );
}

function isFailedReply(message: AgentMessage): boolean {
  return message.role === "assistant" && (message.stopReason === "error" || message.stopReason === "aborted");
}

/**
 * Positions 0 to `length - 1`, as a view of one shared buffer that only grows: a context that is its facts
 * one for one (a path without compaction or edits) needs no copy of them per version. The buffer is never
 * written after it is made, so every view handed out keeps its values.
 */
let identity = new Int32Array(0);

export function identityPositions(length: number): Int32Array {
  if (identity.length < length) {
    // Grown ahead, so a session that grows a fact at a time makes a new buffer only now and then.
    const grown = new Int32Array(Math.max(length, identity.length * 2, 1024));
    for (let index = 0; index < grown.length; index++) grown[index] = index;
    identity = grown;
  }
  return identity.subarray(0, length);
}

/**
 * Project the path to the leaf. `applyCompaction: false` shows what the model would read without
 * compaction (every entry, the summary where it stands); pi always applies it.
 */
export function projectSession(
  path: readonly SessionEntry[],
  { applyCompaction = true } = {},
): SessionProjection {
  const facts: AgentMessage[] = [];
  const factIds: string[] = [];
  // The fact each entry of the path stands for (-1: none), by position: a session just opened projects
  // tens of thousands of entries, and this pass runs before anything of it can be shown.
  const factAt = new Int32Array(path.length).fill(-1);
  const markers: SessionProjection["markers"] = [];
  let thinkingLevel = "off";
  let modelEntry: SessionEntry | undefined;
  let compaction: CompactionEntry | undefined;
  let compactionAt = -1;
  let hasEdits = false;

  for (let position = 0; position < path.length; position++) {
    const entry = path[position] as SessionEntry;
    if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (setsModel(entry)) modelEntry = entry;
    else if (entry.type === "context_edit") hasEdits = true;
    if (entry.type === "compaction") {
      compaction = entry;
      compactionAt = position;
    }
    const fact = factOf(entry);
    if (fact) {
      factAt[position] = facts.length;
      facts.push(fact);
      factIds.push(entry.id);
    } else markers.push({ entry, afterFact: facts.length - 1 });
  }

  // The entries that make up the context, in order (pi's buildContextEntries), by their path positions.
  let contextPositions: ArrayLike<number> | undefined;
  if (applyCompaction && compaction) {
    const kept: number[] = [compactionAt];
    let foundFirstKept = false;
    for (let index = 0; index < compactionAt; index++) {
      const entry = path[index] as SessionEntry;
      if (entry.id === compaction.firstKeptEntryId) foundFirstKept = true;
      if (foundFirstKept && !(entry.type === "message" && entry.message.role === "system")) kept.push(index);
    }
    for (let index = compactionAt + 1; index < path.length; index++) kept.push(index);
    contextPositions = kept;
  }
  const contextLength = contextPositions ? contextPositions.length : path.length;
  const positionAt = (index: number): number => (contextPositions ? (contextPositions[index] ?? -1) : index);

  // The last edit of each target among the context entries wins, as in pi.
  const edits = new Map<string, ContextEditEntry>();
  if (hasEdits)
    for (let index = 0; index < contextLength; index++) {
      const entry = path[positionAt(index)] as SessionEntry;
      if (entry.type === "context_edit") edits.set(entry.targetId, entry);
    }

  // Without an edit or an applied compaction the context is the facts, one for one, each of them in: one
  // array serves both, the positions are a view of a shared identity (see `identityPositions`), and the
  // walk below has nothing to find.
  const contextIsFacts = !hasEdits && !(applyCompaction && compaction);
  const fates = new Array<ContextFate>(facts.length).fill(contextIsFacts ? IN : COMPACTED);
  const context: AgentMessage[] = [];
  const contextFacts: number[] = [];
  for (let index = 0; !contextIsFacts && index < contextLength; index++) {
    const position = positionAt(index);
    const entry = path[position] as SessionEntry;
    // An older compaction kept inside the newest one's range contributes nothing (pi's rule).
    if (entry.type === "compaction" && index > 0 && applyCompaction && compaction) continue;
    const factIndex = factAt[position] ?? -1;
    if (factIndex < 0) continue;
    const fact = facts[factIndex] as AgentMessage;
    const edit = hasEdits ? edits.get(entry.id) : undefined;
    // The prompt and tools the compaction recorded come first; they come from the compaction entry, and
    // an edit that leaves the compaction out leaves them out too (pi's projectContextEntry).
    if (entry.type === "compaction" && entry.systemMessage && applyCompaction && edit?.replacement !== null) {
      context.push(entry.systemMessage as AgentMessage);
      contextFacts.push(factIndex);
    }
    if (!edit) {
      fates[factIndex] = IN;
      context.push(fact);
      contextFacts.push(factIndex);
      continue;
    }
    if (edit.replacement === null) {
      fates[factIndex] = { kind: "omitted", edit, failedAttempt: isFailedReply(fact) };
      continue;
    }
    const replacement = editedOnce(fact, edit);
    fates[factIndex] =
      // An edit back to the original content (a restore) leaves the fact as it was: it is sent as-is.
      replacement === fact || sameContent(replacement, fact)
        ? IN
        : { kind: "edited", edit, original: fact, replacement };
    context.push(replacement);
    contextFacts.push(factIndex);
  }
  // The compaction recorded the prompt and tools in force when it was made (pi's getCurrentSystemMessage of
  // the system messages before it): those system messages are not read themselves, their result is.
  if (applyCompaction && compaction?.systemMessage)
    for (let position = 0; position < compactionAt; position++) {
      const entry = path[position] as SessionEntry;
      const factIndex = factAt[position] ?? -1;
      if (factIndex >= 0 && entry.type === "message" && entry.message.role === "system")
        fates[factIndex] = CARRIED;
    }

  return {
    facts,
    factIds,
    fates,
    context: contextIsFacts ? facts : context,
    contextFacts: contextIsFacts ? identityPositions(facts.length) : Int32Array.from(contextFacts),
    markers,
    model: modelOf(modelEntry),
    thinkingLevel,
  };
}

/**
 * The model and thinking level a path ends with, as `projectSession` finds them, without projecting its
 * facts: what a file's reader (the import worker, where no message kind is loaded) can tell of it.
 */
export function pathEnd(path: readonly SessionEntry[]): Pick<SessionProjection, "model" | "thinkingLevel"> {
  let thinkingLevel = "off";
  let modelEntry: SessionEntry | undefined;
  for (const entry of path) {
    if (entry.type === "thinking_level_change") thinkingLevel = entry.thinkingLevel;
    else if (setsModel(entry)) modelEntry = entry;
  }
  return { model: modelOf(modelEntry), thinkingLevel };
}

/** Whether an entry sets the model the path goes on with: a model change, or a reply (with its model). */
function setsModel(entry: SessionEntry): boolean {
  return entry.type === "model_change" || (entry.type === "message" && entry.message.role === "assistant");
}

/** The model the path ends with: its last model change, or the model of its last reply. */
function modelOf(entry: SessionEntry | undefined): SessionProjection["model"] {
  if (entry?.type === "model_change") return { provider: entry.provider, modelId: entry.modelId };
  if (entry?.type === "message" && entry.message.role === "assistant")
    return { provider: entry.message.provider, modelId: entry.message.model };
  return null;
}

/** The content a fact has for editing: what a context edit of it replaces (its kind's `editable`). */
export function editableContent(message: AgentMessage): FactContent | undefined {
  return loadedKindOf(message).editable?.(message);
}

/** A projection made by extending another: its path is the other's plus entries that only add. */
export interface Extension {
  from: SessionProjection;
  /** The first new fact, and the first new context message. */
  factsFrom: number;
  contextFrom: number;
}

const extensions = new WeakMap<SessionProjection, Extension>();

/** How `projection` was made from an earlier one, when it was (see SessionProjector). */
export function extensionOf(projection: SessionProjection): Extension | undefined {
  return extensions.get(projection);
}

/** Record how `projection` was made from an earlier one (the transcript's `SessionProjector`). */
export function recordExtension(projection: SessionProjection, extension: Extension): void {
  extensions.set(projection, extension);
}
