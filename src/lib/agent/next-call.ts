import type { AgentMessage } from "@earendil-works/pi-agent-core";
import {
  getCurrentTools,
  getToolStateChanges,
  toToolDeclaration,
  type SystemMessage,
  type Tool,
  type ToolReference,
} from "@earendil-works/pi-ai";

interface ToolChanges {
  toolsAdded: Tool[];
  toolsRemoved: ToolReference[];
}

const NO_CHANGES: ToolChanges = { toolsAdded: [], toolsRemoved: [] };

/** A system message with its tool fields replaced by `changes`; empty lists leave the field out. */
function withChanges(message: SystemMessage, { toolsAdded, toolsRemoved }: ToolChanges): SystemMessage {
  const { toolsAdded: _added, toolsRemoved: _removed, ...rest } = message;
  return {
    ...rest,
    ...(toolsAdded.length > 0 ? { toolsAdded } : {}),
    ...(toolsRemoved.length > 0 ? { toolsRemoved } : {}),
  };
}

/**
 * The messages pi's agent loop adds to the context before a request, from the ones waiting (a prompt and
 * what was held for it): when the Agent's tools differ from those the transcript declares, a system
 * message declaring the difference comes first (or the waiting system message carries it). pi-agent-core
 * does this in its loop without exporting it (`declareToolChanges`); this is the same rule on pi-ai's own
 * tool-state helpers, and `next-call.test.ts` checks it against the Agent's actual requests.
 */
export function declareToolChanges(
  context: readonly AgentMessage[],
  pending: readonly AgentMessage[],
  tools: readonly Tool[],
  now = Date.now(),
): AgentMessage[] {
  let systemIndex = -1;
  for (let index = pending.length - 1; index >= 0; index--) {
    if (pending[index]?.role === "system") {
      systemIndex = index;
      break;
    }
  }
  const waiting = pending[systemIndex];
  const system = waiting?.role === "system" ? waiting : undefined;
  const baseline = system
    ? pending.map((message, index) => (index === systemIndex ? withChanges(system, NO_CHANGES) : message))
    : pending;
  const changes = getToolStateChanges(
    getCurrentTools([...context, ...baseline]),
    tools.map((tool) => toToolDeclaration(tool)),
  );
  const unchanged = changes.toolsAdded.length === 0 && changes.toolsRemoved.length === 0;
  if (system) {
    if (unchanged && !system.toolsAdded?.length && !system.toolsRemoved?.length) return [...pending];
    return baseline.map((message, index) => (index === systemIndex ? withChanges(system, changes) : message));
  }
  if (unchanged) return [...pending];
  const update = withChanges({ role: "system", content: "", timestamp: now }, changes);
  const firstOther = pending.findIndex((message) => message.role !== "system");
  const at = firstOther === -1 ? pending.length : firstOther;
  return [...pending.slice(0, at), update, ...pending.slice(at)];
}
