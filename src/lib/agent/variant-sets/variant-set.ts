import type { AgentMessage, ThinkingLevel } from "@earendil-works/pi-agent-core";
import type { AssistantMessage, Tool } from "@earendil-works/pi-ai";
import { isThinkingLevel } from "../../../shared/enums.ts";
import { isObject } from "../../../shared/is-object.ts";
import { positiveInt } from "../../../shared/positive-int.ts";
import { storedSampling, type Sampling } from "../../../shared/sampling.ts";
import { DEFAULT_POLICIES, type Visibility, type VisibilityPolicies } from "../../messages/policies.ts";
import { createUserMessage } from "../../messages/factories.ts";
import { POLICY_ROLES, type PolicyRole } from "../../messages/types.ts";
import type { ModelRef } from "../../models/model-ref.ts";
import { callTokens } from "../recording/call-tokens.ts";
import type { CallBodyRecord, CallRecord } from "../../storage/records.ts";
import { declareToolChanges } from "../next-call.ts";
import type { SessionSettings } from "../session-settings.ts";
import { textPieces } from "../../ui/text-pieces.ts";

/**
 * Variants side by side: two or three columns over the same facts (the session's branch at one leaf), each
 * with its own model, thinking level, system prompt, visibility policies, sampling and tools. A prompt is
 * sent to every column at once; each column's turn is one model call, recorded as a call of the session
 * that carries its link (set, column, turn, prompt and the column's setup), so a set is stored, exported
 * and imported with the session's calls and read back from them alone.
 */

/** At most this many columns: three stay readable side by side on a desktop screen. */
export const MAX_VARIANT_COLUMNS = 3;
export const MIN_VARIANT_COLUMNS = 2;
/** A prompt longer than this (characters) is refused: it is typed once and sent to every column. */
export const VARIANT_PROMPT_LIMIT_CHARS =
  positiveInt(import.meta.env?.VITE_VARIANT_PROMPT_MAX_CHARS) ?? 100_000;
/** The longest text a stored setup may carry (system prompt, label), so a hostile file stays bounded. */
const TEXT_LIMIT = 1_000_000;
const LABEL_LIMIT = 40;

/** One column's settings: everything a column may change of the session's. */
export interface ColumnSetup {
  label: string;
  model: ModelRef;
  thinkingLevel: ThinkingLevel;
  systemPrompt: string;
  policies: VisibilityPolicies;
  sampling: Sampling;
  /** The names of the session's tools this column offers the model. */
  tools: string[];
}

/** What a call of a variant set carries: which set, column and turn it is, and what that column was. */
export interface VariantLink {
  set: string;
  column: number;
  turn: number;
  /** The prompt typed for this turn (the same in every column). */
  prompt: string;
  /** The leaf of the session's branch the set compares over. */
  baseLeafId: string | null;
  setup: ColumnSetup;
}

/** A set as read back from the session's calls: its columns, and each column's call per turn. */
export interface VariantSetView {
  id: string;
  baseLeafId: string | null;
  startedAt: number;
  prompts: string[];
  columns: { setup: ColumnSetup; turns: (CallRecord | undefined)[] }[];
}

/** The columns a new set starts with: each a copy of the session's settings, named A, B, C. */
export function seedColumns(
  settings: SessionSettings,
  systemPrompt: string,
  enabledTools: readonly string[],
  count = 3,
): ColumnSetup[] {
  const columns = Math.min(MAX_VARIANT_COLUMNS, Math.max(MIN_VARIANT_COLUMNS, Math.trunc(count)));
  return Array.from({ length: columns }, (_, index) => ({
    label: String.fromCharCode(65 + index),
    model: { ...settings.model },
    thinkingLevel: settings.thinkingLevel,
    systemPrompt,
    policies: { ...settings.context.policies },
    sampling: structuredClone(settings.sampling),
    tools: [...enabledTools],
  }));
}

/** Why a prompt cannot be sent to the columns; undefined when it can. */
export function promptProblem(prompt: string): string | undefined {
  if (prompt.trim() === "") return "Type a prompt to send to every column.";
  if (prompt.length > VARIANT_PROMPT_LIMIT_CHARS)
    return `The prompt is ${prompt.length.toLocaleString("en")} characters; variants take at most ${VARIANT_PROMPT_LIMIT_CHARS.toLocaleString("en")}.`;
  return undefined;
}

/** Why a column's model cannot be used ("provider/id"); undefined when it can. */
export function modelProblem(text: string): string | undefined {
  const slash = text.trim().indexOf("/");
  return slash <= 0 || slash === text.trim().length - 1
    ? 'Name the model as provider/id, as in "mirror/mirror".'
    : undefined;
}

export function parseModel(text: string): ModelRef {
  const trimmed = text.trim();
  const slash = trimmed.indexOf("/");
  return { provider: trimmed.slice(0, slash), id: trimmed.slice(slash + 1) };
}

/**
 * A call's link as stored, or undefined when it has none or a damaged one (an imported file is read as
 * hostile: every field is checked, texts are bounded, and a damaged link leaves the call an ordinary one).
 */
export function readVariantLink(raw: unknown): VariantLink | undefined {
  if (!isObject(raw) || !isObject(raw.setup)) return undefined;
  const { set, column, turn, prompt, baseLeafId } = raw;
  if (typeof set !== "string" || set === "" || set.length > 200) return undefined;
  if (!isIndex(column, MAX_VARIANT_COLUMNS) || !isIndex(turn, 10_000)) return undefined;
  if (typeof prompt !== "string" || prompt.length > TEXT_LIMIT) return undefined;
  if (baseLeafId !== null && typeof baseLeafId !== "string") return undefined;
  const setup = readSetup(raw.setup);
  return setup ? { set, column, turn, prompt, baseLeafId, setup } : undefined;
}

function isIndex(value: unknown, limit: number): value is number {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 && value < limit;
}

function readSetup(raw: Record<string, unknown>): ColumnSetup | undefined {
  const { label, model, thinkingLevel, systemPrompt, policies, tools } = raw;
  if (typeof label !== "string" || typeof systemPrompt !== "string" || systemPrompt.length > TEXT_LIMIT)
    return undefined;
  if (!isObject(model) || typeof model.provider !== "string" || typeof model.id !== "string")
    return undefined;
  if (!isThinkingLevel(thinkingLevel)) return undefined;
  const given = isObject(policies) ? policies : {};
  const read = Object.fromEntries(
    POLICY_ROLES.map((role) => {
      const visibility = given[role];
      return [
        role,
        visibility === "hidden" || visibility === "userText" ? visibility : DEFAULT_POLICIES[role],
      ];
    }),
  ) as Record<PolicyRole, Visibility>;
  return {
    label: label.slice(0, LABEL_LIMIT),
    model: { provider: model.provider.slice(0, 200), id: model.id.slice(0, 200) },
    thinkingLevel,
    systemPrompt,
    policies: read,
    sampling: storedSampling(raw.sampling),
    tools: Array.isArray(tools)
      ? tools.filter((name): name is string => typeof name === "string").slice(0, 200)
      : [],
  };
}

/**
 * The session's variant sets, from its calls: grouped by set in the order they were started, each column
 * with its setup (as its latest call had it) and its call per turn. A turn a column did not record (it
 * failed before a request left) is undefined there.
 */
export function variantSetsOf(calls: readonly CallRecord[]): VariantSetView[] {
  const sets = new Map<string, VariantSetView>();
  for (const call of calls) {
    const link = readVariantLink(call.variantSet);
    if (!link) continue;
    let set = sets.get(link.set);
    if (!set) {
      set = {
        id: link.set,
        baseLeafId: link.baseLeafId,
        startedAt: call.startedAt,
        prompts: [],
        columns: [],
      };
      sets.set(link.set, set);
    }
    set.prompts[link.turn] ??= link.prompt;
    const column = (set.columns[link.column] ??= { setup: link.setup, turns: [] });
    column.setup = link.setup;
    column.turns[link.turn] = call;
  }
  // Holes (a turn or a column with no call: it failed before its request left) are made explicit.
  for (const set of sets.values()) {
    set.prompts = Array.from(set.prompts, (prompt) => prompt ?? "");
    const known = set.columns.find(Boolean);
    set.columns = Array.from(set.columns, (column, index) => ({
      setup: column?.setup ?? {
        ...(known as { setup: ColumnSetup }).setup,
        label: String.fromCharCode(65 + index),
      },
      turns: Array.from({ length: set.prompts.length }, (_, turn) => column?.turns[turn]),
    }));
  }
  return [...sets.values()];
}

/** What one column's turn measured: what the comparison shows per turn. */
export interface TurnFigures {
  input: number;
  /** Input read from and written to the provider's cache, apart from the input, as providers bill them. */
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /** Dollars, from the provider's usage (0 for the offline models). */
  cost: number;
  firstTokenMs: number | undefined;
  durationMs: number;
  /** Bytes of the provider payload, when the proxy (or the page) reported it. */
  payloadBytes: number | undefined;
  stopReason: string;
  errorMessage: string | undefined;
}

export function turnFigures(call: CallRecord, body?: Pick<CallBodyRecord, "payload">): TurnFigures {
  const tokens = callTokens(call.outcome);
  const payload = body?.payload;
  return {
    input: tokens.input,
    cacheRead: tokens.cacheRead,
    cacheWrite: tokens.cacheWrite,
    output: tokens.output,
    cost: tokens.cost,
    firstTokenMs: call.timing.firstTokenMs,
    durationMs: call.timing.durationMs,
    payloadBytes: payload && payload.kept !== "none" ? payload.bytes : undefined,
    stopReason: call.outcome.stopReason,
    errorMessage: call.outcome.errorMessage,
  };
}

export type FigureName =
  "input" | "cacheRead" | "cacheWrite" | "output" | "cost" | "firstTokenMs" | "durationMs" | "payloadBytes";
export const FIGURE_NAMES: readonly FigureName[] = [
  "input",
  "cacheRead",
  "cacheWrite",
  "output",
  "cost",
  "firstTokenMs",
  "durationMs",
  "payloadBytes",
];

/** One turn compared across columns: each column's figures, and which columns are lowest of each figure. */
export interface TurnComparison {
  figures: (TurnFigures | undefined)[];
  /** Per figure, the columns with its lowest value (none when fewer than two columns have it, or all tie). */
  lowest: Record<FigureName, number[]>;
}

export function compareTurn(figures: readonly (TurnFigures | undefined)[]): TurnComparison {
  const lowest = {} as Record<FigureName, number[]>;
  for (const name of FIGURE_NAMES) {
    const values = figures.map((figure) => figure?.[name]);
    const known = values.filter((value): value is number => typeof value === "number");
    const min = Math.min(...known);
    const winners = values.flatMap((value, index) => (value === min ? [index] : []));
    lowest[name] = known.length >= 2 && winners.length < known.length ? winners : [];
  }
  return { figures: [...figures], lowest };
}

/** Replace the leading system message's prompt, as a column's system prompt does (the facts are kept). */
export function withSystemPrompt(messages: readonly AgentMessage[], prompt: string): AgentMessage[] {
  const first = messages[0];
  if (first?.role !== "system") return [...messages];
  if (first.content === prompt) return [...messages];
  return [{ ...first, content: prompt, sections: undefined } as AgentMessage, ...messages.slice(1)];
}

/** A turn of a column as its context is rebuilt: the prompt, when it was sent, and the reply it got. */
export interface ColumnTurn {
  prompt: string;
  at: number;
  reply: AssistantMessage | undefined;
}

/**
 * A column's context over the base facts, as pi's agent loop would build it turn by turn: the column's
 * system prompt in place of the session's, then per turn the prompt (after the declaration of the
 * column's tools where they differ from those declared so far, see `declareToolChanges`) and its reply.
 * `added` holds each turn's new facts (declaration, prompt, reply): what the column adds to the base.
 */
export function columnContext(
  base: readonly AgentMessage[],
  systemPrompt: string,
  turns: readonly ColumnTurn[],
  tools: readonly Tool[],
): { context: AgentMessage[]; added: AgentMessage[][] } {
  let context = withSystemPrompt(base, systemPrompt);
  const added: AgentMessage[][] = [];
  for (const turn of turns) {
    const sent = declareToolChanges(context, [createUserMessage(turn.prompt, turn.at)], tools, turn.at);
    const facts = turn.reply ? [...sent, turn.reply] : sent;
    added.push(facts);
    context = [...context, ...facts];
  }
  return { context, added };
}

/** A column shows at most this much of an output (characters); the rest is counted, and kept in the call. */
export const VARIANT_OUTPUT_SHOWN_CHARS =
  positiveInt(import.meta.env?.VITE_VARIANT_OUTPUT_SHOWN_CHARS) ?? 20_000;

/**
 * A column shows its output in pieces of about this many characters (see `textPieces`): as it streams, only
 * the last piece changes, so each frame lays out a few hundred characters per column, not every column's
 * whole output.
 */
export const VARIANT_OUTPUT_PIECE_CHARS = 400;

/** The part of an output a column shows, in pieces, and how many characters it leaves out. */
export function shownOutput(
  text: string,
  limit = VARIANT_OUTPUT_SHOWN_CHARS,
): { text: string; pieces: string[]; hidden: number } {
  const shown = text.length <= limit ? text : text.slice(0, limit);
  return {
    text: shown,
    pieces: shown ? textPieces(shown, VARIANT_OUTPUT_PIECE_CHARS) : [],
    hidden: text.length - shown.length,
  };
}
