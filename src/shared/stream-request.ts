import type { Message, SimpleStreamOptions } from "@earendil-works/pi-ai";
import { HttpError } from "./http-error.ts";
import { isObject } from "./is-object.ts";
import { THINKING_LEVELS } from "./enums.ts";
import { checkCallId } from "./payloads/payload-route.ts";
import { mirrorSpeedIn, type MirrorSpeed } from "./mirror/mirror-speed.ts";
import { checkSamplingParams } from "./sampling-check.ts";

/** A `/api/stream` body after validation: the model is only a reference, options only what we allow. */
export interface StreamRequest {
  provider: string;
  modelId: string;
  messages: Message[];
  options: Pick<
    SimpleStreamOptions,
    | "temperature"
    | "maxTokens"
    | "reasoning"
    | "sessionId"
    | "cacheRetention"
    | "thinkingBudgets"
    | "samplingParams"
  >;
  /**
   * The page's name for this call (`options.metadata.callId`), under which the provider payload is kept.
   * The metadata itself is never part of `options`: nothing of it reaches a provider.
   */
  callId?: string;
  /** The pace chosen for the offline models (from the options' metadata); the default pace when absent. */
  mirrorSpeed?: MirrorSpeed;
}

const ROLES = new Set(["system", "user", "assistant", "toolResult"]);
const REASONING = new Set<string>(THINKING_LEVELS.filter((level) => level !== "off"));
const CACHE_RETENTION = new Set(["none", "short", "long"]);

/**
 * Parse and check the body `streamProxy` sends: `{model, context: {messages}, options}`. Everything the
 * client says about where or how to reach the model (baseUrl, headers, api) is ignored: the server
 * looks the model up itself.
 */
export function parseStreamRequest(raw: string): StreamRequest {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch (error) {
    throw new HttpError(400, `Request body is not valid JSON: ${(error as Error).message}`);
  }
  if (!isObject(body))
    throw new HttpError(400, "Request body must be a JSON object with model, context and options.");

  const model = body.model;
  if (!isObject(model))
    throw new HttpError(400, 'Missing field "model": expected an object with provider and id.');
  if (typeof model.provider !== "string" || model.provider === "") {
    throw new HttpError(400, 'Missing field "model.provider": expected a non-empty string.');
  }
  if (typeof model.id !== "string" || model.id === "")
    throw new HttpError(400, 'Missing field "model.id": expected a non-empty string.');

  const context = body.context;
  if (!isObject(context) || !Array.isArray(context.messages)) {
    throw new HttpError(400, 'Missing field "context.messages": expected an array of messages.');
  }
  const messages = context.messages.map((message, index) => checkMessage(message, index));

  const callId = parseCallId(body.options);
  const pace = mirrorSpeedIn(isObject(body.options) ? body.options.metadata : undefined);
  if ("error" in pace) throw new HttpError(400, pace.error);
  return {
    provider: model.provider,
    modelId: model.id,
    messages,
    options: parseOptions(body.options),
    ...(callId === undefined ? {} : { callId }),
    ...(pace.speed === undefined ? {} : { mirrorSpeed: pace.speed }),
  };
}

function parseCallId(options: unknown): string | undefined {
  if (!isObject(options) || !isObject(options.metadata)) return undefined;
  const callId = options.metadata.callId;
  if (callId === undefined) return undefined;
  if (typeof callId !== "string")
    throw new HttpError(400, 'Field "options.metadata.callId" must be a string.');
  return checkCallId(callId, 'Field "options.metadata.callId"');
}

function checkMessage(message: unknown, index: number): Message {
  const where = `context.messages[${index}]`;
  if (!isObject(message)) throw new HttpError(400, `${where} must be an object.`);
  const role = message.role;
  if (typeof role !== "string" || !ROLES.has(role)) {
    throw new HttpError(
      400,
      `${where} has role ${JSON.stringify(role)}; the model accepts system, user, assistant and toolResult.`,
    );
  }
  const content = message.content;
  const contentOk =
    role === "system" || role === "user"
      ? typeof content === "string" || Array.isArray(content)
      : Array.isArray(content);
  if (!contentOk) throw new HttpError(400, `${where} (${role}) has no valid "content".`);
  if (
    role === "toolResult" &&
    (typeof message.toolCallId !== "string" || typeof message.toolName !== "string")
  ) {
    throw new HttpError(400, `${where} (toolResult) needs string "toolCallId" and "toolName".`);
  }
  return message as unknown as Message;
}

function parseOptions(value: unknown): StreamRequest["options"] {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) throw new HttpError(400, 'Field "options" must be an object.');
  const options: StreamRequest["options"] = {};
  if (typeof value.temperature === "number" && Number.isFinite(value.temperature))
    options.temperature = value.temperature;
  if (typeof value.maxTokens === "number" && Number.isInteger(value.maxTokens) && value.maxTokens > 0) {
    options.maxTokens = value.maxTokens;
  }
  if (typeof value.reasoning === "string" && REASONING.has(value.reasoning)) {
    options.reasoning = value.reasoning as NonNullable<SimpleStreamOptions["reasoning"]>;
  }
  if (typeof value.sessionId === "string" && value.sessionId.length <= 200)
    options.sessionId = value.sessionId;
  if (typeof value.cacheRetention === "string" && CACHE_RETENTION.has(value.cacheRetention)) {
    options.cacheRetention = value.cacheRetention as NonNullable<SimpleStreamOptions["cacheRetention"]>;
  }
  if (isObject(value.thinkingBudgets)) {
    const budgets: NonNullable<SimpleStreamOptions["thinkingBudgets"]> = {};
    for (const level of ["minimal", "low", "medium", "high"] as const) {
      const budget = value.thinkingBudgets[level];
      if (typeof budget === "number" && Number.isInteger(budget) && budget > 0) budgets[level] = budget;
    }
    options.thinkingBudgets = budgets;
  }
  if (value.samplingParams !== undefined) {
    const checked = checkSamplingParams(value.samplingParams);
    if ("error" in checked) throw new HttpError(400, checked.error);
    if (Object.keys(checked.params).length > 0) options.samplingParams = checked.params;
  }
  return options;
}
