import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { Message } from "@earendil-works/pi-ai";
import { isObject } from "../../shared/is-object.ts";
import { loadedKindOf } from "./kinds/loaded.ts";
import type { ModelFate } from "./kinds/kind.ts";
import { DEFAULT_POLICIES, type VisibilityPolicies } from "./policies.ts";

/** How one fact fares on its way to the model, before ordering and compaction are considered. */
export type ConversionFate = "sent" | "converted" | "hidden" | "excluded" | "unknown";

export interface Conversion {
  fate: ConversionFate;
  /** The model message; absent when the fate is hidden or excluded. */
  message?: Message;
  /** Converted by a visibility policy; such messages never split a tool call from its results. */
  byPolicy?: boolean;
}

const HIDDEN: Conversion = { fate: "hidden" };
const EXCLUDED: Conversion = { fate: "excluded" };
/** A role nobody registered (from a file, storage or a live pi): never sent, as pi drops roles it does not know. */
const UNKNOWN: Conversion = { fate: "unknown" };

/**
 * Converted messages are cached per fact object and policy, so recomputing the model view returns the
 * same objects for unchanged facts: cheap to redo on every change, and stable identities for the UI. A
 * hit is used only while the fact's own fields are the very values the conversion was built from (a
 * shallow snapshot), so a fact changed in place (an extension editing its message, a file's object reused)
 * converts again. Nested values are shared with the conversion, as pi shares them, never copied.
 */
interface Cached {
  key: string;
  fields: unknown[];
  conversion: Conversion;
}
const cache = new WeakMap<object, Cached>();

function fieldsOf(fact: object): unknown[] {
  const fields: unknown[] = [];
  for (const name in fact) {
    if (Object.hasOwn(fact, name)) fields.push(name, (fact as Record<string, unknown>)[name]);
  }
  return fields;
}

function sameFields(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (!Object.is(a[index], b[index])) return false;
  return true;
}

/** What the model gets of one fact, as its kind says (pi's `convertToLlm`, one fact at a time). */
export function convertMessage(message: AgentMessage, policies: VisibilityPolicies): Conversion {
  const fate = loadedKindOf(message).convert(message, policies);
  switch (fate.fate) {
    case "sent":
      return { fate: "sent", message: message as Message };
    case "hidden":
      return HIDDEN;
    case "excluded":
      return EXCLUDED;
    case "unknown":
      return UNKNOWN;
    case "converted":
      return cached(message, fate);
  }
}

function cached(
  fact: AgentMessage,
  convert: Extract<ModelFate<AgentMessage>, { fate: "converted" }>,
): Conversion {
  const fields = fieldsOf(fact);
  const hit = cache.get(fact);
  if (hit && hit.key === convert.key && sameFields(hit.fields, fields)) return hit.conversion;
  const conversion: Conversion = {
    fate: "converted",
    message: convert.build(fact),
    ...(convert.byPolicy ? { byPolicy: true } : {}),
  };
  cache.set(fact, { key: convert.key, fields, conversion });
  return conversion;
}

/**
 * Walk the facts in order and emit model messages with the index of the fact each came from.
 *
 * One ordering rule goes beyond a plain map: a policy-converted fact recorded while a tool call is
 * still waiting for its result (a tool approval is decided between the call and its result) is emitted
 * after the results. Providers require results to follow their call directly; pi-ai would otherwise
 * invent "No result provided" results at the interruption.
 */
export interface WalkOptions {
  /** Called once per fact, with its conversion, in fact order. */
  onFate?: (factIndex: number, conversion: Conversion) => void;
}

/**
 * The walk behind `forEachModelMessage`, one fact at a time. A walk whose end held nothing back can be
 * resumed with more facts (`resumable`): the model view of a session that grew is then its previous
 * view plus the new facts' messages, without walking the old ones again.
 */
export class ModelMessageWalk {
  readonly #policies: VisibilityPolicies;
  readonly #waitingResults = new Set<string>();
  #held: { message: Message; index: number }[] = [];
  /** The last `finish()` found nothing held back, so what it ended is what more facts continue. */
  #resumable = true;
  #emit: (message: Message, factIndex: number) => void;
  #onFate: WalkOptions["onFate"];

  constructor(
    policies: VisibilityPolicies,
    emit: (message: Message, factIndex: number) => void,
    { onFate }: WalkOptions = {},
  ) {
    this.#policies = policies;
    this.#emit = emit;
    this.#onFate = onFate;
  }

  /** The walk can go on with more facts after `finish()`: it had held nothing back for later. */
  get resumable(): boolean {
    return this.#resumable;
  }

  /** Go on with new receivers (a resumed walk emits into the new view). */
  redirect(emit: (message: Message, factIndex: number) => void, { onFate }: WalkOptions = {}): void {
    this.#emit = emit;
    this.#onFate = onFate;
  }

  step(fact: AgentMessage, index: number): void {
    const conversion = convertMessage(fact, this.#policies);
    this.#onFate?.(index, conversion);
    const message = conversion.message;
    if (!message) return;

    if (conversion.byPolicy && this.#waitingResults.size > 0) {
      this.#held.push({ message, index });
      return;
    }
    if (message.role === "toolResult") {
      this.#emit(message, index);
      this.#waitingResults.delete(message.toolCallId);
      if (this.#waitingResults.size === 0) this.#flush();
      return;
    }
    if (this.#waitingResults.size > 0) this.#waitingResults.clear();
    this.#flush();
    this.#emit(message, index);
    if (message.role === "assistant" && message.stopReason !== "error" && message.stopReason !== "aborted") {
      // Content is read as pi's types promise it only where it is a list; pi passes any other shape
      // through unchanged, and so does this walk (holes and null blocks included).
      const content: unknown = message.content;
      if (Array.isArray(content))
        for (const block of content as unknown[])
          if (isObject(block) && block.type === "toolCall") this.#waitingResults.add(block.id as string);
    }
  }

  /** The facts so far are all walked: emit what was held back for results that never came. */
  finish(): void {
    this.#resumable = this.#held.length === 0;
    this.#flush();
  }

  #flush(): void {
    if (this.#held.length === 0) return;
    const held = this.#held;
    this.#held = [];
    for (const item of held) this.#emit(item.message, item.index);
  }
}

export function forEachModelMessage(
  facts: readonly AgentMessage[],
  policies: VisibilityPolicies,
  emit: (message: Message, factIndex: number) => void,
  options: WalkOptions = {},
): ModelMessageWalk {
  const walk = new ModelMessageWalk(policies, emit, options);
  // A hole in a sparse list is no message (pi's map and filter skip it too).
  for (let index = 0; index < facts.length; index++)
    if (index in facts) walk.step(facts[index] as AgentMessage, index);
  walk.finish();
  return walk;
}

/** The Agent's `convertToLlm`: facts in, the messages a provider receives out. Callable as pi calls it, with one argument. */
export function convertToLlm(
  facts: readonly AgentMessage[],
  policies: VisibilityPolicies = DEFAULT_POLICIES,
): Message[] {
  const out: Message[] = [];
  forEachModelMessage(facts, policies, (message) => out.push(message));
  return out;
}
