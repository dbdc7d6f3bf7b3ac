import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { ImageContent, Message, SystemMessage, TextContent } from "@earendil-works/pi-ai";
import type { EntryBase, SessionEntry } from "../entries.ts";
import type { Component } from "svelte";
import type { PolicyRole } from "../types.ts";
import type { Field } from "./fields.ts";

/**
 * What a message kind is made of: everything the playground knows about one role of fact, in one module
 * per role (`kinds/<role>.ts`), registered in one table (`kinds/index.ts`). Every part is required: a
 * kind that leaves one out does not compile, and neither does a role of `AgentMessage` without a kind.
 * A part that does not apply says so with `null` (a kind the model reads as it is has no anatomy category
 * of its own), so leaving it out is never a silent choice.
 */
export interface MessageKind<M extends Fact = Fact> {
  readonly role: M["role"];
  /** What people call it: "Bash execution". */
  readonly label: string;
  /** What the model gets of it, before ordering and compaction (pi's `convertToLlm`, per role). */
  readonly convert: (message: M, policies: VisibilityPolicies) => ModelFate<M>;
  /**
   * Whether a per-session visibility policy decides if the model reads it (the tutorial's types), and the
   * policy's default; `null` for a kind whose fate is fixed.
   */
  readonly policy: M["role"] extends PolicyRole ? { readonly default: Visibility } : null;
  /** The badge that names it in lists: its role, or more ("custom:reminder"). */
  readonly badge: (message: M) => string;
  /** One line that tells it apart from its neighbours (the inspector's rows, the calls, the queue). */
  readonly preview: (message: M) => string;
  /** What a person expects on the clipboard when copying it from the chat. */
  readonly copyText: (message: M) => string;
  /** Its own size in tokens, by pi-ai's estimate (a fact the policy hides still has a size). */
  readonly tokens: (message: M) => number;
  /** What the session tree calls its entry: what it says ("" when nothing a person would know it by). */
  readonly title: (message: M) => string;
  /**
   * Its category in the context's anatomy when the model reads it as user text made by conversion; `null`
   * for the model's own roles, whose blocks the anatomy sorts by type.
   */
  readonly anatomy: AnatomyCategory | null;
  /**
   * Its fields, in the order their errors are listed: the schema a message of the role must meet (the
   * injection dialog, imported sessions and storage check it) and the sentence shown when a value fails.
   */
  readonly fields: Readonly<Record<string, Field>>;
  /**
   * The content a context edit of it replaces (pi's `context_edit` entries replace a message's content):
   * `null` for a kind whose content the model does not read as it is.
   */
  readonly editable: ((message: M) => FactContent) | null;
  /**
   * How pi's session manager writes it to a session file when it is not a plain message entry (a custom
   * message is a `custom_message` entry, a summary a `branch_summary` or `compaction`); `null` for a kind
   * written as the message entry it is.
   */
  readonly piEntry: ((message: M, place: EntryPlace) => SessionEntry) | null;
  /** How the chat shows it: a view of its own, loaded on first use, or one of the conversation's own. */
  readonly view: MessageView<M>;
  /** Its form in the injection dialog, which makes a new fact of the kind; `null` when none is offered. */
  readonly form: FormPart<M> | null;
}

/** Where a fact's entry goes in the session: its own id, time and parent, and the prompt in force there. */
export interface EntryPlace extends EntryBase {
  /** The system message the model reads at this point (a compaction records it, as pi's does). */
  system: SystemMessage | undefined;
}

/** A fact's content as the model reads it: text, or text and image parts (what a context edit replaces). */
export type FactContent = string | (TextContent | ImageContent)[];

/** A kind's form: the fields people fill in, and the fact they describe. */
export interface FormPart<M> {
  /** The fields, in the order the dialog shows them. */
  readonly fields: readonly FormField[];
  /** Starting values other than the defaults (a box unchecked, a list's first option, a text empty). */
  readonly initial: Readonly<FormValues>;
  /**
   * The fact the form describes, made with the kind's factory from what was typed (its timestamp is set
   * when it is injected). `form` reads the values and notes what is wrong, field by field.
   */
  readonly build: (form: FormReader) => M;
}

export interface FormField {
  name: string;
  label: string;
  input: "text" | "textarea" | "number" | "checkbox" | "select" | "json";
  options?: readonly string[];
  hint?: string;
}

export type FormValues = Record<string, string | boolean>;

/** Reads a form's values for `FormPart.build`; each problem is kept as an error of its field. */
export interface FormReader {
  /** A text field as typed ("" when empty). */
  text(name: string): string;
  flag(name: string): boolean;
  /** A text field that must not be blank. */
  required(name: string, label: string): string;
  /** A number field: undefined when empty; text that is not a number is an error. */
  optionalNumber(name: string, label: string, integer?: boolean): number | undefined;
  /** A number field that must be filled in (0 stands in while it is not). */
  requiredNumber(name: string, label: string, integer?: boolean): number;
  /** A JSON field: undefined when empty; text that is not JSON, or nests too deep, is an error. */
  json(name: string, label: string): unknown;
}

/**
 * A kind's view in the chat. The model's own roles are the conversation, drawn by the chat itself (a reply
 * with its tool calls and their results, streaming, retry); every other kind names a view of its own,
 * loaded when the first fact of its kind is shown.
 */
export type MessageView<M> =
  | { readonly conversation: "system" | "user" | "assistant" | "toolResult" }
  | { readonly load: () => Promise<{ default: Component<FactViewProps<M>> }> };

/** What a kind's own view is given: its fact, and what the chat knows around it. */
export interface FactViewProps<M> {
  message: M;
  context: FactViewContext;
}

/** What a fact's view may read of the session around it, and the one decision it may take. */
export interface FactViewContext {
  /** The session's visibility policies: what the model reads of the tutorial's types. */
  readonly policies: VisibilityPolicies;
  /** Another run holds the session: nothing is decided from here meanwhile. */
  readonly busy: boolean;
  /** Whether a tool call is waiting on a decision about this call right now. */
  isWaitingFor(toolCallId: string | undefined): boolean;
  /** Decide the approval request this view shows. */
  decide(status: "approved" | "rejected", reason: string | undefined): void;
  /** The title of the branch that ends at an entry, when the session's tree knows it (never its id). */
  branchTitle(entryId: string | null): string | undefined;
}

/** Any fact: a role and a time (a role nobody registered is such a fact too). */
export interface Fact {
  role: string;
  timestamp: number;
}

/** A kind for any fact, its role known or not: what a registry lookup returns. */
export type AnyMessageKind = MessageKind<AgentMessage>;

/**
 * What the model gets of one fact: the fact itself (`sent`), nothing (`hidden` by a policy, `excluded` by
 * the fact itself, `unknown` for a role nobody registered, which pi drops), or a message built from it.
 * A built message is made by `build`, a function of the fact alone, so the conversion can be cached per
 * fact; `key` tells apart conversions of one fact under different policies.
 */
export type ModelFate<M> =
  | { readonly fate: "sent" | "hidden" | "excluded" | "unknown" }
  | {
      readonly fate: "converted";
      readonly build: (message: M) => Message;
      readonly key: string;
      /** Converted by a visibility policy; such messages never split a tool call from its results. */
      readonly byPolicy: boolean;
    };

/**
 * What the model sees of a tutorial-type fact: nothing (`hidden`, the tutorial's default: kept for people
 * and audit, never sent) or a user message carrying its text (`userText`).
 */
export type Visibility = "hidden" | "userText";

export type VisibilityPolicies = Readonly<Record<PolicyRole, Visibility>>;

/** Context Lens's composition categories (LHAR `CompositionCategory`). */
export type LharCategory =
  | "system_prompt"
  | "tool_definitions"
  | "tool_results"
  | "tool_calls"
  | "assistant_text"
  | "user_text"
  | "thinking"
  | "system_injections"
  | "images"
  | "cache_markers"
  | "other";

export interface AnatomyCategory {
  /** The category's name in the composition chart: "bash executions". */
  readonly label: string;
  readonly lhar: LharCategory;
}

/** A user message carrying one text part, with the fact's own timestamp as it is (pi fills in none). */
export function userText(text: string, timestamp: number): Message {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}
