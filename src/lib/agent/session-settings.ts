import type { AgentMessage, ThinkingLevel } from "@earendil-works/pi-agent-core";
import { DEFAULT_CONTEXT_SETTINGS, type ContextSettings, type Visibility } from "../messages/policies.ts";
import { POLICY_ROLES } from "../messages/types.ts";
import { validators } from "../messages/validators.ts";
import type { ModelRef } from "../models/model-ref.ts";
import { isThinkingLevel } from "../../shared/enums.ts";
import { isObject } from "../../shared/is-object.ts";
import { DEMO_TOOL_NAMES } from "../../shared/demo-tool-names.ts";
import { storedSampling, type Sampling } from "../../shared/sampling.ts";

/** Everything a session owns besides its facts; stored in its metadata record. */
export interface SessionSettings {
  model: ModelRef;
  thinkingLevel: ThinkingLevel;
  context: ContextSettings;
  /** Tool name → whether calling it waits for a person's approval. */
  toolApprovals: Record<string, boolean>;
  /** Messages held for the next prompt ("next turn" delivery). */
  nextTurn: AgentMessage[];
  /** How the Agent delivers queued messages: all at once, or one per turn (pi's QueueMode). */
  queueModes: QueueModes;
  /** Temperature, max tokens and the parameters the model's API takes; unset ones are the provider's. */
  sampling: Sampling;
  /**
   * The session's tool definitions as stored (tools/tool-definitions.ts reads them where they are used);
   * absent: the demo tools.
   */
  tools?: readonly unknown[];
}

export type QueueMode = "all" | "one-at-a-time";
export interface QueueModes {
  steering: QueueMode;
  followUp: QueueMode;
}

/** pi-agent-core's defaults. */
export const DEFAULT_QUEUE_MODES: QueueModes = { steering: "one-at-a-time", followUp: "one-at-a-time" };

function readQueueMode(value: unknown, fallback: QueueMode): QueueMode {
  return value === "all" || value === "one-at-a-time" ? value : fallback;
}

/** Tools that change something wait for approval by default; reading tools do not. */
const DEFAULT_TOOL_APPROVALS: Readonly<Record<string, boolean>> = {
  [DEMO_TOOL_NAMES.time]: false,
  [DEMO_TOOL_NAMES.arithmetic]: false,
  [DEMO_TOOL_NAMES.note]: true,
};

export function defaultSettings(): SessionSettings {
  return {
    model: { provider: "mirror", id: "mirror" },
    thinkingLevel: "off",
    context: DEFAULT_CONTEXT_SETTINGS,
    toolApprovals: { ...DEFAULT_TOOL_APPROVALS },
    nextTurn: [],
    queueModes: DEFAULT_QUEUE_MODES,
    sampling: {},
  };
}

/** Read stored settings, repairing them field by field from the defaults rather than refusing the session. */
export function readSettings(raw: unknown): SessionSettings {
  const value = isObject(raw) ? raw : {};
  const defaults = defaultSettings();
  const model =
    isObject(value.model) && typeof value.model.provider === "string" && typeof value.model.id === "string"
      ? { provider: value.model.provider, id: value.model.id }
      : defaults.model;
  const thinkingLevel = isThinkingLevel(value.thinkingLevel) ? value.thinkingLevel : defaults.thinkingLevel;
  const context = isObject(value.context) ? value.context : {};
  const policiesRaw = isObject(context.policies) ? context.policies : {};
  const policies = { ...DEFAULT_CONTEXT_SETTINGS.policies };
  for (const role of POLICY_ROLES) {
    const visibility = policiesRaw[role];
    if (visibility === "hidden" || visibility === "userText") policies[role] = visibility as Visibility;
  }
  const toolApprovals: Record<string, boolean> = { ...defaults.toolApprovals };
  if (isObject(value.toolApprovals)) {
    for (const [name, required] of Object.entries(value.toolApprovals))
      if (typeof required === "boolean") toolApprovals[name] = required;
  }
  const queues = isObject(value.queueModes) ? value.queueModes : {};
  const nextTurn = Array.isArray(value.nextTurn)
    ? value.nextTurn.flatMap((message) => {
        const validation = validators().validateMessage(message);
        return validation.ok ? [validation.message] : [];
      })
    : [];
  return {
    model,
    thinkingLevel,
    context: {
      policies,
      applyCompaction:
        typeof context.applyCompaction === "boolean"
          ? context.applyCompaction
          : DEFAULT_CONTEXT_SETTINGS.applyCompaction,
    },
    toolApprovals,
    nextTurn,
    queueModes: {
      steering: readQueueMode(queues.steering, DEFAULT_QUEUE_MODES.steering),
      followUp: readQueueMode(queues.followUp, DEFAULT_QUEUE_MODES.followUp),
    },
    sampling: storedSampling(value.sampling),
    ...(Array.isArray(value.tools) ? { tools: value.tools as unknown[] } : {}),
  };
}
