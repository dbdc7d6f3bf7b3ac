import type { Message } from "@earendil-works/pi-ai";
import { getSystemMessageText } from "@earendil-works/pi-ai/utils/text";
import type { SessionEntry } from "../messages/entries.ts";
import { POLICY_ROLES } from "../messages/types.ts";
import { diffRequests } from "../model-view/request-diff.ts";
import { factOf } from "../model-view/session-projection.ts";
import type { CallBodyRecord, CallRecord } from "../storage/records.ts";
import type { Category } from "./categories.ts";
import { compose, inputTotal, type Composition, type MessageSource, type TokenBasis } from "./composition.ts";

/**
 * Each recorded call of a session, read for the anatomy: its composition (from the messages it carried
 * and the usage it returned), its context size against the model's window, its cost, and what changed
 * since the call before it as far as the records show (entries added between the two, the model, the
 * thinking level, the system prompt and tools, a policy that hid or showed a fact, a move to another
 * branch), with the point where the prompt-cache prefix broke.
 */

/** The session around its calls: every entry (all branches), where it was forked from. */
export interface SessionContext {
  /** Read again whenever a call is added: a live session keeps adding entries. */
  entries: () => readonly SessionEntry[];
  forkedFrom?: { title: string };
  /** The model's context window; undefined when unknown. */
  windowOf: (provider: string, modelId: string) => number | undefined;
}

/** What is known of a call's body: its messages and their sources, or why not. */
export type CallBody =
  { kind: "kept"; messages: Message[]; sources: (string | null)[] } | { kind: "unknown"; reason: string };

export type ChangeKind =
  | "compaction"
  | "branchSummary"
  | "fork"
  | "branch"
  | "contextEdit"
  | "model"
  | "thinking"
  | "systemPrompt"
  | "tools"
  | "policy";

export const CHANGE_LABELS: Record<ChangeKind, string> = {
  compaction: "compaction",
  branchSummary: "return with a branch summary",
  fork: "fork",
  branch: "moved to another branch",
  contextEdit: "context edit",
  model: "model change",
  thinking: "thinking level change",
  systemPrompt: "system prompt edit",
  tools: "tools changed",
  policy: "policy change",
};

export interface Change {
  kind: ChangeKind;
  text: string;
  entryId?: string;
}

export interface CacheBreak {
  /** Messages the two requests share from the start; the previous call had `previousLength`. */
  position: number;
  previousLength: number;
  cause: string;
  /** The fact at the break, when one is to blame. */
  entryId: string | null;
  /** Tokens of this call after the break: input no prefix cache could serve. */
  tokensAfter: number;
}

/** A composition without its per-message detail: what is kept for every call of a long session. */
export interface CallTotals {
  total: number;
  basis: TokenBasis;
  categories: { category: Category; tokens: number; share: number; blocks: number }[];
  byEntry: Map<string | null, number>;
}

export interface CallAnatomy {
  seq: number;
  call: CallRecord;
  /** Known when the call's messages were kept. */
  totals: CallTotals | undefined;
  /** Why the composition is not known. */
  unknown: string | undefined;
  /** Context size: the provider's input count, else pi-ai's estimate, else unknown. */
  contextTokens: number | undefined;
  basis: "usage" | "estimate" | "unknown";
  cacheRead: number;
  cacheWrite: number;
  uncached: number;
  output: number;
  window: number | undefined;
  cost: number;
  cumulativeCost: number;
  changes: Change[];
  cacheBreak: CacheBreak | undefined;
}

/** Read a stored body into what the anatomy needs. */
export function readBody(body: CallBodyRecord | undefined, reason = "its body was not found"): CallBody {
  if (!body) return { kind: "unknown", reason };
  if (body.messages.kept === "all")
    return { kind: "kept", messages: body.messages.value, sources: body.sources };
  if (body.messages.kept === "truncated")
    return {
      kind: "unknown",
      reason: `its messages were cut at ${body.messages.text.length.toLocaleString("en-US")} bytes of ${body.messages.bytes.toLocaleString("en-US")}`,
    };
  return { kind: "unknown", reason: `its messages were not kept: ${body.messages.reason}` };
}

/**
 * The session's entries by id, with the role of the fact each stands for. Follows a live list: when
 * the list is replaced (entries added or replaced), the index is built again on its next use.
 */
export class EntryIndex {
  readonly #entries: () => readonly SessionEntry[];
  #indexed: readonly SessionEntry[] | undefined;
  readonly #byId = new Map<string, SessionEntry>();
  readonly #roles = new Map<string, string | undefined>();

  constructor(entries: readonly SessionEntry[] | (() => readonly SessionEntry[])) {
    this.#entries = typeof entries === "function" ? entries : () => entries;
  }

  /** The entries, indexed again if the list changed since. */
  get entries(): readonly SessionEntry[] {
    const entries = this.#entries();
    if (entries !== this.#indexed) {
      this.#indexed = entries;
      this.#byId.clear();
      this.#roles.clear();
      for (const entry of entries) this.#byId.set(entry.id, entry);
    }
    return entries;
  }

  entry(id: string | null | undefined): SessionEntry | undefined {
    void this.entries;
    return id ? this.#byId.get(id) : undefined;
  }

  roleOf(id: string | null | undefined): string | undefined {
    if (!id) return undefined;
    void this.entries;
    if (this.#roles.has(id)) return this.#roles.get(id);
    const entry = this.#byId.get(id);
    const role = entry ? factOf(entry)?.role : undefined;
    this.#roles.set(id, role);
    return role;
  }

  /** Whether `ancestor` is `id` or lies on the path from the root to it. */
  isOnPathTo(ancestor: string, id: string | null): boolean {
    void this.entries;
    const seen = new Set<string>();
    for (let current = id; current !== null && !seen.has(current);) {
      if (current === ancestor) return true;
      seen.add(current);
      current = this.#byId.get(current)?.parentId ?? null;
    }
    return false;
  }

  sources(ids: readonly (string | null)[]): MessageSource[] {
    return ids.map((entryId) => ({ entryId: entryId ?? null, role: this.roleOf(entryId) }));
  }
}

export function totalsOf(composition: Composition): CallTotals {
  return {
    total: composition.total,
    basis: composition.basis,
    categories: composition.categories.map(({ category, tokens, share, blocks }) => ({
      category,
      tokens,
      share,
      blocks,
    })),
    byEntry: composition.byEntry,
  };
}

const MARKED_ENTRIES = new Set(["compaction", "branch_summary", "context_edit", "model_change"]);

function entryChange(entry: SessionEntry, index: EntryIndex): Change | undefined {
  switch (entry.type) {
    case "compaction":
      return {
        kind: "compaction",
        text: `compacted: ${entry.tokensBefore.toLocaleString("en-US")} tokens before`,
        entryId: entry.id,
      };
    case "branch_summary":
      return { kind: "branchSummary", text: "came back from a branch with a summary", entryId: entry.id };
    case "context_edit": {
      const role = index.roleOf(entry.targetId) ?? "an entry";
      return {
        kind: "contextEdit",
        text: entry.replacement === null ? `${role} left out by an edit` : `${role} edited`,
        entryId: entry.targetId,
      };
    }
    case "model_change":
      return { kind: "model", text: `model set to ${entry.provider}/${entry.modelId}`, entryId: entry.id };
    default:
      return undefined;
  }
}

function systemState(messages: readonly Message[]): { prompt: string; tools: string } {
  let prompt = "";
  let tools = "";
  for (const message of messages) {
    if (message.role !== "system") continue;
    prompt += getSystemMessageText(message);
    tools += JSON.stringify([message.toolsAdded ?? [], message.toolsRemoved ?? []]);
  }
  return { prompt, tools };
}

const POLICY = new Set<string>(POLICY_ROLES);

/** Facts of a policy type one request carried and the other did not, while both had them on their path. */
function policyChanges(
  previous: { call: CallRecord; body: Extract<CallBody, { kind: "kept" }> },
  call: CallRecord,
  body: Extract<CallBody, { kind: "kept" }>,
  index: EntryIndex,
): Change[] {
  const before = new Set(previous.body.sources);
  const after = new Set(body.sources);
  const changes = new Map<string, Change>();
  for (const id of before) {
    const role = index.roleOf(id);
    if (!id || after.has(id) || !role || !POLICY.has(role)) continue;
    if (call.leafId !== null && index.isOnPathTo(id, call.leafId))
      changes.set(`hide:${role}`, { kind: "policy", text: `${role} facts no longer sent`, entryId: id });
  }
  for (const id of after) {
    const role = index.roleOf(id);
    if (!id || before.has(id) || !role || !POLICY.has(role)) continue;
    if (previous.call.leafId !== null && index.isOnPathTo(id, previous.call.leafId))
      changes.set(`show:${role}`, {
        kind: "policy",
        text: `${role} facts now sent as user text`,
        entryId: id,
      });
  }
  return [...changes.values()];
}

function describeBreak(
  previous: { call: CallRecord; body: Extract<CallBody, { kind: "kept" }> },
  call: CallRecord,
  body: Extract<CallBody, { kind: "kept" }>,
  position: number,
  changes: readonly Change[],
  index: EntryIndex,
): { cause: string; entryId: string | null } {
  const modelChange = changes.find((change) => change.kind === "model" && change.entryId === undefined);
  if (modelChange)
    return { cause: `${modelChange.text}: a prompt cache belongs to one model`, entryId: null };
  const before = previous.body.messages[position];
  const after = body.messages[position];
  const beforeId = previous.body.sources[position] ?? null;
  const afterId = body.sources[position] ?? null;
  if (before?.role === "system" || after?.role === "system") {
    const what = changes.filter((change) => change.kind === "systemPrompt" || change.kind === "tools");
    return {
      cause: what.length > 0 ? what.map((change) => change.text).join(" and ") : "the system message changed",
      entryId: afterId ?? beforeId,
    };
  }
  const blame = (kind: ChangeKind) => changes.find((change) => change.kind === kind);
  if (beforeId !== null && beforeId === afterId) {
    const edit = changes.find((change) => change.kind === "contextEdit" && change.entryId === beforeId);
    const role = index.roleOf(beforeId) ?? "fact";
    return {
      cause: edit
        ? `a context edit changed this ${role}`
        : `this ${role} was sent with new content (an approval decided, a fact replaced)`,
      entryId: beforeId,
    };
  }
  for (const kind of ["branch", "compaction", "branchSummary", "policy", "contextEdit"] as const) {
    const change = blame(kind);
    if (change) return { cause: change.text, entryId: change.entryId ?? beforeId ?? afterId };
  }
  if (before && !body.sources.includes(beforeId))
    return { cause: `this ${index.roleOf(beforeId) ?? "message"} is no longer sent`, entryId: beforeId };
  if (after)
    return {
      cause: `a ${index.roleOf(afterId) ?? "message"} was placed before the end of the previous request`,
      entryId: afterId,
    };
  return { cause: "the request is shorter than the previous one", entryId: beforeId };
}

/**
 * The anatomy of every call, in order. `bodies[i]` is what is known of `calls[i]`'s body. Calls are
 * read one after the other, each against the one before, so only two bodies are needed at a time.
 */
export class CallAnalyzer {
  readonly #context: SessionContext;
  readonly #index: EntryIndex;
  /** Entries that mark the timeline, by time (made again when the entries change). */
  #marked: { at: number; entry: SessionEntry }[] = [];
  #markedFrom: readonly SessionEntry[] | undefined;
  #previous: { call: CallRecord; body: CallBody; anatomy: CallAnatomy } | undefined;
  #cumulativeCost = 0;
  #markedUpTo = 0;

  constructor(context: SessionContext) {
    this.#context = context;
    this.#index = new EntryIndex(context.entries);
  }

  /** The marking entries; those up to the last call added stay counted as shown. */
  #markers(): { at: number; entry: SessionEntry }[] {
    const entries = this.#index.entries;
    if (entries !== this.#markedFrom) {
      this.#markedFrom = entries;
      const shown = new Set(this.#marked.slice(0, this.#markedUpTo).map((item) => item.entry.id));
      this.#marked = entries
        .filter((entry) => MARKED_ENTRIES.has(entry.type))
        .map((entry) => ({ at: Date.parse(entry.timestamp), entry }))
        .filter((item) => Number.isFinite(item.at))
        .sort((a, b) => a.at - b.at);
      // Keep what was shown before at the front, so a marker is never shown twice.
      this.#marked.sort((a, b) => Number(shown.has(b.entry.id)) - Number(shown.has(a.entry.id)));
      this.#markedUpTo = shown.size;
    }
    return this.#marked;
  }

  get index(): EntryIndex {
    return this.#index;
  }

  /** Changes recorded after the last call (they shape the next one). */
  pendingChanges(): Change[] {
    return this.#markers()
      .slice(this.#markedUpTo)
      .map((item) => entryChange(item.entry, this.#index))
      .filter((change): change is Change => change !== undefined);
  }

  add(call: CallRecord, body: CallBody): CallAnatomy {
    const index = this.#index;
    const previous = this.#previous;
    const usage = call.outcome.usage;
    const providerInput = inputTotal(usage);
    let composition: Composition | undefined;
    if (body.kind === "kept") composition = compose(body.messages, index.sources(body.sources), usage);

    const changes: Change[] = [];
    if (!previous && this.#context.forkedFrom)
      changes.push({ kind: "fork", text: `forked from “${this.#context.forkedFrom.title}”` });
    const marked = this.#markers();
    while (this.#markedUpTo < marked.length) {
      const item = marked[this.#markedUpTo];
      if (!item || item.at > call.startedAt) break;
      const change = entryChange(item.entry, index);
      if (change) changes.push(change);
      this.#markedUpTo++;
    }
    if (previous) {
      const before = previous.call;
      if (before.provider !== call.provider || before.modelId !== call.modelId)
        changes.push({
          kind: "model",
          text: `model changed from ${before.provider}/${before.modelId} to ${call.provider}/${call.modelId}`,
        });
      const thinkingBefore = String(before.options.reasoning ?? "off");
      const thinkingNow = String(call.options.reasoning ?? "off");
      if (thinkingBefore !== thinkingNow)
        changes.push({ kind: "thinking", text: `thinking from ${thinkingBefore} to ${thinkingNow}` });
      if (
        before.replyEntryId &&
        call.leafId !== null &&
        index.entry(before.replyEntryId) &&
        !index.isOnPathTo(before.replyEntryId, call.leafId)
      )
        changes.push({
          kind: "branch",
          text: "continued from another point of the session (a fork or a return)",
          entryId: call.leafId,
        });
      if (previous.body.kind === "kept" && body.kind === "kept") {
        const was = systemState(previous.body.messages);
        const now = systemState(body.messages);
        const systemId =
          body.sources[body.messages.findIndex((message) => message.role === "system")] ?? undefined;
        if (was.prompt !== now.prompt)
          changes.push({
            kind: "systemPrompt",
            text: "system prompt edited",
            ...(systemId ? { entryId: systemId } : {}),
          });
        if (was.tools !== now.tools)
          changes.push({
            kind: "tools",
            text: "tool definitions changed",
            ...(systemId ? { entryId: systemId } : {}),
          });
        changes.push(...policyChanges({ call: before, body: previous.body }, call, body, index));
      }
    }

    let cacheBreak: CacheBreak | undefined;
    if (previous?.body.kind === "kept" && body.kind === "kept" && composition) {
      const diff = diffRequests(previous.body.messages, body.messages);
      const modelChanged = changes.some((change) => change.kind === "model" && change.entryId === undefined);
      const previousLength = previous.body.messages.length;
      if (diff.commonPrefix < previousLength || modelChanged) {
        const position = modelChanged ? 0 : diff.commonPrefix;
        const { cause, entryId } = describeBreak(
          { call: previous.call, body: previous.body },
          call,
          body,
          position,
          changes,
          index,
        );
        let tokensAfter = 0;
        for (let at = position; at < composition.messageTokens.length; at++)
          tokensAfter += composition.messageTokens[at] ?? 0;
        cacheBreak = { position, previousLength, cause, entryId, tokensAfter };
      }
    }

    const cost = Number.isFinite(usage.cost?.total) ? usage.cost.total : 0;
    this.#cumulativeCost += cost;
    const contextTokens = providerInput > 0 ? providerInput : composition?.total;
    const window = this.#context.windowOf(call.provider, call.modelId);
    const anatomy: CallAnatomy = {
      seq: call.seq,
      call,
      totals: composition ? totalsOf(composition) : undefined,
      unknown: body.kind === "unknown" ? body.reason : undefined,
      contextTokens,
      basis: providerInput > 0 ? "usage" : composition ? "estimate" : "unknown",
      cacheRead: usage.cacheRead || 0,
      cacheWrite: usage.cacheWrite || 0,
      uncached: usage.input || 0,
      output: usage.output || 0,
      window,
      cost,
      cumulativeCost: this.#cumulativeCost,
      changes,
      cacheBreak,
    };
    this.#previous = { call, body, anatomy };
    return anatomy;
  }
}
