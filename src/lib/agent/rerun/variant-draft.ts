import type { Message } from "@earendil-works/pi-ai";
import { isObject } from "../../../shared/is-object.ts";
import { positiveInt } from "../../../shared/positive-int.ts";
import { samplingOptions } from "../../../shared/sampling-params.ts";
import { storedSampling, type Sampling } from "../../../shared/sampling.ts";
import { nestsDeeperThan, tooDeepMessage } from "../../messages/nesting.ts";
import { LLM_ROLES } from "../../messages/types.ts";
import { describeErrors, validateMessage } from "../../messages/validate.ts";
import type { CallRecord } from "../../storage/records.ts";

/**
 * A recorded call re-run with changes: the draft is seeded from what the call sent (its messages as sent,
 * model, thinking level and sampling) and every part of it is text a person edits. Building the request
 * checks each part and says which one is wrong; nothing is sent until all are right.
 */
export interface VariantDraft {
  provider: string;
  modelId: string;
  /** The leading system message's text; undefined when the call sent no system message. */
  systemPrompt: string | undefined;
  /** The messages as sent, as JSON (a system prompt edited above replaces the leading one's content). */
  messagesJson: string;
  /** pi-ai's reasoning option: "" sends none (thinking off). */
  reasoning: string;
  /** As the shared sampling fields edit it (each value checked as it is typed): empty is the provider's default. */
  sampling: Sampling;
}

/** What the re-run sends: a model by reference, its messages and stream options. */
export interface VariantRequest {
  provider: string;
  modelId: string;
  messages: Message[];
  options: Record<string, unknown>;
}

export type DraftField = "model" | "systemPrompt" | "messages";
export interface DraftProblem {
  field: DraftField;
  message: string;
}
export type DraftResult = { ok: true; request: VariantRequest } | { ok: false; problems: DraftProblem[] };

/** The draft's messages may be at most this long (characters of JSON): a re-run is one call's request. */
export const VARIANT_MESSAGES_LIMIT_CHARS =
  positiveInt(import.meta.env?.VITE_VARIANT_MAX_CHARS) ?? 8 * 1024 * 1024;

export function systemText(message: Message | undefined): string | undefined {
  if (message?.role !== "system") return undefined;
  return typeof message.content === "string"
    ? message.content
    : message.content.map((part) => part.text).join("");
}

/** The draft of a recorded call, as it was sent. */
export function seedDraft(call: CallRecord, messages: readonly Message[]): VariantDraft {
  const options = call.options;
  return {
    provider: call.provider,
    modelId: call.modelId,
    systemPrompt: systemText(messages[0]),
    messagesJson: JSON.stringify(messages, null, 2),
    reasoning: typeof options.reasoning === "string" ? options.reasoning : "",
    sampling: storedSampling({
      temperature: options.temperature,
      maxTokens: options.maxTokens,
      params: options.samplingParams,
    }),
  };
}

/**
 * The request a draft sends, starting from the recorded call's options, with the draft's sampling as a model
 * of `api` takes it; or every problem, by field.
 */
export function buildVariantRequest(
  draft: VariantDraft,
  recordedOptions: Record<string, unknown>,
  api: string,
): DraftResult {
  const problems: DraftProblem[] = [];
  if (draft.provider.trim() === "" || draft.modelId.trim() === "")
    problems.push({ field: "model", message: "Choose a model to run the call on." });
  const messages = readMessages(draft.messagesJson, problems);
  if (messages && draft.systemPrompt !== undefined) {
    const first = messages[0];
    if (first?.role === "system") messages[0] = { ...first, content: draft.systemPrompt };
    else if (draft.systemPrompt !== "")
      problems.push({
        field: "systemPrompt",
        message: "The messages no longer start with a system message: put the prompt in the messages' JSON.",
      });
  }
  const options: Record<string, unknown> = { ...recordedOptions };
  delete options.temperature;
  delete options.maxTokens;
  delete options.samplingParams;
  delete options.reasoning;
  if (draft.reasoning !== "") options.reasoning = draft.reasoning;
  Object.assign(options, samplingOptions(draft.sampling, api));
  if (problems.length > 0 || !messages) return { ok: false, problems };
  return {
    ok: true,
    request: { provider: draft.provider.trim(), modelId: draft.modelId.trim(), messages, options },
  };
}

function readMessages(source: string, problems: DraftProblem[]): Message[] | undefined {
  const refuse = (message: string) => {
    problems.push({ field: "messages", message });
    return undefined;
  };
  if (source.length > VARIANT_MESSAGES_LIMIT_CHARS)
    return refuse(
      `The messages are ${source.length.toLocaleString("en")} characters of JSON; a re-run takes at most ${VARIANT_MESSAGES_LIMIT_CHARS.toLocaleString("en")}.`,
    );
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    return refuse(`The messages are not valid JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) return refuse("The messages must be a JSON array of messages.");
  if (parsed.length === 0) return refuse("A call needs at least one message.");
  if (nestsDeeperThan(parsed)) return refuse(`The messages nest ${tooDeepMessage()}.`);
  const messages: Message[] = [];
  for (const [index, value] of parsed.entries()) {
    const role: unknown = isObject(value) ? value.role : undefined;
    if (typeof role !== "string" || !(LLM_ROLES as readonly string[]).includes(role))
      return refuse(
        `Message ${index + 1}: a call sends only ${LLM_ROLES.join(", ")} messages (this one's role is ${JSON.stringify(role)}).`,
      );
    const checked = validateMessage(value);
    if (!checked.ok) return refuse(`Message ${index + 1}: ${describeErrors(checked.errors)}`);
    messages.push(checked.message as Message);
  }
  return messages;
}
