import { Agent, type AgentOptions } from "@earendil-works/pi-agent-core";
import { createProxyStreamFn, type ProxyStreamOptions } from "./proxy-stream.ts";

// Built only for a preview of the next call, which waits for this chunk as a run does.
export { previewRequestFor } from "./stream-route.ts";
export { declareToolChanges } from "./next-call.ts";
export { samplingOptions } from "../../shared/sampling-params.ts";
export { agentToolsFor } from "./tools/session-tools.ts";
export { sessionTools } from "./tools/tool-definitions.ts";
export { ToolAnswers } from "./tool-answers.svelte.ts";
export { prepareWhenIdle as prepareRequestBodyWhenIdle } from "./request-body.ts";

/**
 * pi's `Agent` and the stream function that speaks the proxy protocol: the part of the session runtime
 * only a run needs. It is its own chunk, requested as a session opens and awaited by the first run, so the
 * page shows the conversation without waiting for it.
 */
export interface SessionAgentOptions
  extends
    Pick<AgentOptions, "convertToLlm" | "beforeToolCall" | "prepareRequest" | "finishTurn" | "sessionId">,
    ProxyStreamOptions {
  initialState: NonNullable<AgentOptions["initialState"]>;
}

export function createSessionAgent(options: SessionAgentOptions): Agent {
  const { router, onRequest, onAnswered, mirrorSpeed, sampling, initialState, ...hooks } = options;
  return new Agent({
    ...hooks,
    initialState,
    streamFn: createProxyStreamFn({
      router,
      onRequest,
      ...(onAnswered ? { onAnswered } : {}),
      ...(mirrorSpeed ? { mirrorSpeed } : {}),
      ...(sampling ? { sampling } : {}),
    }),
  });
}
