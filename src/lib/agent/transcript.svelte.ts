import type { Agent, AgentMessage } from "@earendil-works/pi-agent-core";
import type { SystemMessage } from "@earendil-works/pi-ai";
import {
  chainEntries,
  newEntryId,
  type MessageEntry,
  pathTo,
  type EntryBase,
  type SessionEntry,
} from "../messages/entries.ts";
import { projectSession, type SessionProjection } from "../model-view/session-projection.ts";
import { SessionProjector } from "../model-view/session-projector.ts";
import type { EntryRecord } from "../storage/records.ts";
import type { TranscriptIndex } from "./transcript-index.ts";
import { loadedKindOf } from "../messages/kinds/loaded.ts";

/** Where the transcript's changes go to be stored (the session's writer). */
export interface EntrySink {
  append(entries: readonly SessionEntry[]): void;
  replace(entry: SessionEntry): void;
  leafMoved(): void;
}

/** An entry to add, without the fields the transcript gives it (id, parent, time). */
export type NewEntry = SessionEntry extends infer Entry
  ? Entry extends SessionEntry
    ? Omit<Entry, keyof EntryBase>
    : never
  : never;

/**
 * The one owner of a session's facts. The session is a tree of entries with a current leaf; the facts
 * are what the entries on the path from the root to that leaf stand for, and the context the model reads
 * is their projection (compaction and context edits applied, as pi does). Every change goes through here:
 * it updates the path, tells the writer what to store, and is the only code that sets the Agent's
 * messages (before a run, and through `prepareRequest`'s returned context during one).
 */
export class Transcript {
  // Not reactive on purpose: the path is the reactive view of these entries, replaced per change.
  readonly #byId: Map<string, SessionEntry>;
  /** Entries in order of creation (for the tree view and exports). */
  #order = $state.raw<SessionEntry[]>([]);
  #path = $state.raw<SessionEntry[]>([]);
  #leafId = $state<string | null>(null);
  readonly #applyCompaction: () => boolean;
  #sink: EntrySink | undefined;
  #agent: Agent | undefined;

  // A cache, not state: it remembers the last projection so a path that only grew is projected cheaply.
  readonly #projector = new SessionProjector();
  readonly projection: SessionProjection = $derived(
    this.#projector.project(this.#path, { applyCompaction: this.#applyCompactionNow() }),
  );

  /** A transcript of stored entries, indexed (`indexEntries`); an empty index starts a session afresh. */
  constructor(index: TranscriptIndex, applyCompaction: () => boolean = () => true) {
    this.#applyCompaction = applyCompaction;
    this.#byId = index.byId;
    this.#order = index.order;
    this.#leafId = index.leafId;
    this.#path = index.path;
  }

  #applyCompactionNow(): boolean {
    return this.#applyCompaction();
  }

  /** Connect the writer; from now on every change is stored. */
  bindSink(sink: EntrySink): void {
    this.#sink = sink;
  }

  /** Connect the Agent whose messages this transcript sets. */
  bindAgent(agent: Agent): void {
    this.#agent = agent;
    this.syncAgent();
  }

  get facts(): readonly AgentMessage[] {
    return this.projection.facts;
  }

  get leafId(): string | null {
    return this.#leafId;
  }

  /** The entries on the path from the root to the leaf. */
  get path(): readonly SessionEntry[] {
    return this.#path;
  }

  /** Every entry of the session, in order of creation: all branches. */
  get entries(): readonly SessionEntry[] {
    return this.#order;
  }

  entry(id: string): SessionEntry | undefined {
    return this.#byId.get(id);
  }

  /** The entry behind the fact at `index`. */
  entryIdAt(index: number): string | undefined {
    return this.projection.factIds[index];
  }

  /** Position of an entry's fact on the path; -1 when the entry is not on it. */
  indexOfEntry(entryId: string): number {
    return this.projection.factIds.lastIndexOf(entryId);
  }

  /** The messages the next request is built from: the projection's context (then `convertToLlm`). */
  context(): AgentMessage[] {
    return this.projection.context.slice();
  }

  /** Give the Agent the transcript as it is now: before a run starts, and after one ends. */
  syncAgent(): void {
    // Not copied here: pi's setter copies the array it is given (documented on `AgentState.messages`;
    // `transcript.test.ts` holds pi to it), and a session of 100,000 facts would be copied twice.
    if (this.#agent) this.#agent.state.messages = this.projection.context as AgentMessage[];
  }

  /**
   * New facts at the end of the path, each the child of the one before; returns their entries. A fact pi
   * keeps as an entry of its own kind becomes one: an extension's custom message a `custom_message`, a
   * branch summary a `branch_summary`, a compaction summary a `compaction` (keeping nothing before it).
   */
  append(messages: readonly AgentMessage[]): readonly SessionEntry[] {
    if (messages.length === 0) return [];
    const entries = this.#entriesFor(messages);
    this.#add(entries);
    return entries;
  }

  /** The context the model would read with these messages appended; nothing is stored or changed. */
  contextWith(messages: readonly AgentMessage[]): readonly AgentMessage[] {
    if (messages.length === 0) return this.context();
    const path = [...this.#path, ...this.#entriesFor(messages)];
    return projectSession(path, { applyCompaction: this.#applyCompactionNow() }).context;
  }

  #entriesFor(messages: readonly AgentMessage[]): SessionEntry[] {
    // A compaction records the prompt and tools in force, as pi's does, so the model keeps them. Looked
    // up only for one: it is a walk back through the whole context, and the prompt is usually its first.
    const found = messages.some((message) => message.role === "compactionSummary")
      ? this.projection.context.findLast((message) => message.role === "system")
      : undefined;
    const system = found?.role === "system" ? found : undefined;
    return chainEntries(messages, this.#leafId, (id) => this.#byId.has(id)).map((entry) =>
      asPiEntry(entry, system),
    );
  }

  /** Another kind of entry at the end of the path: a context edit, a label, a model change, a summary… */
  appendEntry(fields: NewEntry): SessionEntry {
    const entry = {
      ...fields,
      id: newEntryId((id) => this.#byId.has(id)),
      parentId: this.#leafId,
      timestamp: new Date().toISOString(),
    } as SessionEntry;
    this.#add([entry]);
    return entry;
  }

  #add(entries: readonly SessionEntry[]): void {
    for (const entry of entries) this.#byId.set(entry.id, entry);
    // Joined, not spread: spreading copies element by element through the iterator, about twice the cost
    // of one copy, and these arrays hold every entry of the session. A path that is every entry (a session
    // without branches) shares the order's array, and goes on sharing it: the same entries join both.
    const pathIsOrder = this.#path === this.#order;
    this.#order = this.#order.concat(entries);
    this.#path = pathIsOrder ? this.#order : this.#path.concat(entries);
    this.#leafId = entries.at(-1)?.id ?? this.#leafId;
    this.#sink?.append(entries);
  }

  /** Replace the message of the fact at `index` (facts are never changed in place). */
  replaceAt(index: number, message: AgentMessage): void {
    const id = this.projection.factIds[index];
    const entry = id === undefined ? undefined : this.#byId.get(id);
    if (!entry || entry.type !== "message") return;
    this.#replaceEntry({ ...entry, message });
  }

  /** Replace a fact found by identity; false when it is not on the path. */
  replaceFact(previous: AgentMessage, next: AgentMessage): boolean {
    const index = this.projection.facts.lastIndexOf(previous);
    if (index === -1) return false;
    this.replaceAt(index, next);
    return true;
  }

  #replaceEntry(next: SessionEntry): void {
    this.#byId.set(next.id, next);
    const pathIsOrder = this.#path === this.#order;
    this.#order = this.#order.map((entry) => (entry.id === next.id ? next : entry));
    const position = pathIsOrder ? -1 : this.#path.findLastIndex((entry) => entry.id === next.id);
    if (pathIsOrder) this.#path = this.#order;
    else if (position !== -1) {
      const path = this.#path.slice();
      path[position] = next;
      this.#path = path;
    }
    this.#sink?.replace(next);
  }

  /**
   * Continue from another entry: the path now ends there, and what is appended next branches off it. The
   * entries beyond stay in the tree, on their own branch.
   */
  moveLeaf(entryId: string | null): void {
    if (entryId !== null && !this.#byId.has(entryId)) return;
    if (entryId === this.#leafId) return;
    this.#leafId = entryId;
    this.#path = pathTo(this.#byId, entryId);
    this.#sink?.leafMoved();
  }

  /**
   * Entries another tab stored (new ones, or new versions of ours), and where its leaf is now. They are
   * known to be stored, so nothing is written back.
   */
  adopt(records: readonly EntryRecord[], leafId: string | null): void {
    if (records.length === 0 && leafId === this.#leafId) return;
    const added: SessionEntry[] = [];
    for (const record of records) {
      if (!this.#byId.has(record.entry.id)) added.push(record.entry);
      this.#byId.set(record.entry.id, record.entry);
    }
    const replaced = new Set(records.map((record) => record.entry.id));
    this.#order = [
      ...this.#order.map((entry) => (replaced.has(entry.id) ? (this.#byId.get(entry.id) ?? entry) : entry)),
      ...added,
    ];
    if (leafId === null || this.#byId.has(leafId)) this.#leafId = leafId;
    this.#path = pathTo(this.#byId, this.#leafId);
  }
}

/** A message entry as pi's session manager would have written that fact (its kind's `piEntry`). */
function asPiEntry(entry: MessageEntry, system: SystemMessage | undefined): SessionEntry {
  const { id, parentId, timestamp, message } = entry;
  // A kind without one (a role nobody here defined, too) is written as the message entry it is.
  return loadedKindOf(message).piEntry?.(message, { id, parentId, timestamp, system }) ?? entry;
}
