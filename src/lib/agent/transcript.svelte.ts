import type { Agent, AgentMessage } from "@earendil-works/pi-agent-core";
import { chainEntries, pathTo, relinkOrphans, type SessionEntry } from "../messages/entries.ts";
import type { EntryRecord } from "../storage/records.ts";

/** Where the transcript's changes go to be stored (the session's writer). */
export interface EntrySink {
  append(entries: readonly SessionEntry[]): void;
  replace(entry: SessionEntry): void;
  leafMoved(): void;
}

/**
 * The one owner of a session's facts. The session is a tree of entries with a current leaf; the facts
 * are the messages on the path from the root to that leaf, and the model reads them. Every change goes
 * through here: it updates the reactive facts, tells the writer what to store, and is the only code that
 * sets the Agent's messages (before a run, and through `prepareRequest`'s returned context during one).
 */
export class Transcript {
  // Not reactive on purpose: the facts are the reactive projection of these entries, replaced per change.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #byId = new Map<string, SessionEntry>();
  #facts = $state.raw<AgentMessage[]>([]);
  /** Entry id of each fact, parallel to the facts. */
  #factIds: string[] = [];
  #leafId = $state<string | null>(null);
  #sink: EntrySink | undefined;
  #agent: Agent | undefined;

  constructor(records: readonly EntryRecord[], leafId: string | null) {
    const entries = relinkOrphans(records.map((record) => record.entry));
    for (const entry of entries) this.#byId.set(entry.id, entry);
    this.#leafId = leafId !== null && this.#byId.has(leafId) ? leafId : (entries.at(-1)?.id ?? null);
    this.#rebuildPath();
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
    return this.#facts;
  }

  get leafId(): string | null {
    return this.#leafId;
  }

  /** The entry behind the fact at `index`. */
  entryIdAt(index: number): string | undefined {
    return this.#factIds[index];
  }

  /** Position of an entry's fact on the path; -1 when the entry is not on it. */
  indexOfEntry(entryId: string): number {
    return this.#factIds.lastIndexOf(entryId);
  }

  /** The messages the next request is built from (the Agent then runs transformContext and convertToLlm). */
  context(): AgentMessage[] {
    return this.#facts.slice();
  }

  /** Give the Agent the transcript as it is now: before a run starts, and after one ends. */
  syncAgent(): void {
    if (this.#agent) this.#agent.state.messages = this.context();
  }

  /** New facts at the end of the path, each the child of the one before; returns their entries. */
  append(messages: readonly AgentMessage[]): readonly SessionEntry[] {
    if (messages.length === 0) return [];
    const entries = chainEntries(messages, this.#leafId, (id) => this.#byId.has(id));
    for (const entry of entries) this.#byId.set(entry.id, entry);
    this.#factIds = [...this.#factIds, ...entries.map((entry) => entry.id)];
    this.#facts = [...this.#facts, ...messages];
    this.#leafId = entries.at(-1)?.id ?? this.#leafId;
    this.#sink?.append(entries);
    return entries;
  }

  /** Replace the fact at `index` with a new version (facts are never changed in place). */
  replaceAt(index: number, message: AgentMessage): void {
    const id = this.#factIds[index];
    const entry = id === undefined ? undefined : this.#byId.get(id);
    if (!entry || entry.type !== "message") return;
    const next: SessionEntry = { ...entry, message };
    this.#byId.set(next.id, next);
    const facts = this.#facts.slice();
    facts[index] = message;
    this.#facts = facts;
    this.#sink?.replace(next);
  }

  /** Replace a fact found by identity; false when it is not on the path. */
  replaceFact(previous: AgentMessage, next: AgentMessage): boolean {
    const index = this.#facts.lastIndexOf(previous);
    if (index === -1) return false;
    this.replaceAt(index, next);
    return true;
  }

  /**
   * Entries another tab stored (new ones, or new versions of ours), and where its leaf is now. They are
   * known to be stored, so nothing is written back.
   */
  adopt(records: readonly EntryRecord[], leafId: string | null): void {
    if (records.length === 0 && leafId === this.#leafId) return;
    for (const record of records) this.#byId.set(record.entry.id, record.entry);
    if (leafId !== null && this.#byId.has(leafId)) this.#leafId = leafId;
    this.#rebuildPath();
  }

  #rebuildPath(): void {
    const path = pathTo(this.#byId, this.#leafId);
    this.#factIds = path.map((entry) => entry.id);
    this.#facts = path.map((entry) => entry.message);
  }
}
