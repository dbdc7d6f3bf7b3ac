import type { Api, Message, Model } from "@earendil-works/pi-ai";
import { transformMessages } from "@earendil-works/pi-ai/api/transform-messages";
import { collapseSystemMessages, normalizeContext } from "@earendil-works/pi-ai/utils/transcript";
import {
  anthropicToolCallId,
  bedrockToolCallId,
  createMistralToolCallIds,
  googleToolCallId,
  openAICompletionsToolCallId,
  openAIResponsesToolCallIds,
  RESPONSES_TOOL_CALL_PROVIDERS,
  type ToolCallIdNormalizer,
} from "./tool-call-ids.ts";

/**
 * What one of pi-ai's provider adapters does to the model view before it builds its request body. Every
 * adapter that transforms (openai-completions, the three Responses adapters, anthropic-messages, mistral,
 * both Google adapters, bedrock) does two things, in this order:
 * 1. System messages: those after the leading one stay in place only when the model declares
 *    `compat.supportsMidConvoSystemMessages`; otherwise pi-ai's `collapseSystemMessages` replays all of
 *    them into one leading system message. The Google adapters and Bedrock always collapse.
 * 2. `transformMessages(messages, model, normalizeToolCallId)` with the adapter's own id normalizer.
 * What the adapter does after that (grouping tool results into one user turn, moving images out of error
 * results, skipping empty messages, rendering system updates) shapes the wire format, not the list.
 */
export interface ProviderTransform {
  /**
   * False for `pi-messages`, whose adapter posts the list as it is to a pi server that transforms it on its
   * own side. Any other API pi-ai does not know (the faux provider, a custom one) gets `transformMessages`
   * without a normalizer and with system messages in place: what a provider built on pi-ai's shared
   * transform does when it brings no id rule of its own.
   */
  transforms: boolean;
  systemMessages: "collapsed" | "in place";
  /** The adapter's id normalizer; undefined for unknown APIs (ids are then kept as they are). */
  normalizeToolCallId: ToolCallIdNormalizer | undefined;
}

function midConversationSystemMessages(model: Model<Api>): ProviderTransform["systemMessages"] {
  const compat = model.compat;
  const declared = compat !== undefined && "supportsMidConvoSystemMessages" in compat;
  return declared && compat.supportsMidConvoSystemMessages === true ? "in place" : "collapsed";
}

/** The transform of `model.api`'s adapter. Make one per request: Mistral's normalizer keeps state. */
export function providerTransformFor(model: Model<Api>): ProviderTransform {
  const api: string = model.api;
  switch (api) {
    case "anthropic-messages":
      return {
        transforms: true,
        systemMessages: midConversationSystemMessages(model),
        normalizeToolCallId: anthropicToolCallId,
      };
    case "openai-completions":
      return {
        transforms: true,
        systemMessages: midConversationSystemMessages(model),
        normalizeToolCallId: openAICompletionsToolCallId,
      };
    case "openai-responses":
    case "azure-openai-responses":
    case "openai-codex-responses":
      return {
        transforms: true,
        systemMessages: midConversationSystemMessages(model),
        normalizeToolCallId: openAIResponsesToolCallIds(RESPONSES_TOOL_CALL_PROVIDERS[api]),
      };
    case "mistral-conversations": {
      const mistralId = createMistralToolCallIds();
      return {
        transforms: true,
        systemMessages: midConversationSystemMessages(model),
        normalizeToolCallId: (id) => mistralId(id),
      };
    }
    case "google-generative-ai":
    case "google-vertex":
      return { transforms: true, systemMessages: "collapsed", normalizeToolCallId: googleToolCallId };
    case "bedrock-converse-stream":
      return { transforms: true, systemMessages: "collapsed", normalizeToolCallId: bedrockToolCallId };
    case "pi-messages":
      return { transforms: false, systemMessages: "in place", normalizeToolCallId: undefined };
    default:
      return { transforms: true, systemMessages: "in place", normalizeToolCallId: undefined };
  }
}

/** The messages `model`'s provider adapter builds its request from, computed with pi-ai's own functions. */
export function applyProviderTransform(messages: readonly Message[], model: Model<Api>): Message[] {
  const plan = providerTransformFor(model);
  if (!plan.transforms) return messages.slice();
  const context = normalizeContext({ messages: messages.slice() });
  const resolved = plan.systemMessages === "collapsed" ? collapseSystemMessages(context) : context;
  try {
    return transformMessages(resolved.messages, model, plan.normalizeToolCallId);
  } catch (error) {
    // The adapter would fail on this list the same way; say where, rather than surface pi-ai's internals.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`The ${model.api} transform cannot read this list: ${reason}`, { cause: error });
  }
}
