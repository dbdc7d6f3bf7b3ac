import { Agent, type AgentOptions } from "@earendil-works/pi-agent-core";
import { createProxyStreamFn, type ProxyStreamOptions } from "./proxy-stream.ts";
import { DEMO_TOOLS } from "./tools/demo-tools.ts";

// Built only for a preview of the next call, which waits for this chunk as a run does.
export { previewRequestFor } from "./stream-route.ts";
export { declareToolChanges } from "./next-call.ts";
export { samplingOptions } from "../../shared/sampling-params.ts";

/**
 * pi's `Agent` and the stream function that speaks the proxy protocol: the part of the session runtime
 * only a run needs. It is its own chunk, requested as a session opens and awaited by the first run, so the
 * page shows the conversation without waiting for it.
 */
export interface SessionAgentOptions
  extends
    Pick<AgentOptions, "convertToLlm" | "beforeToolCall" | "prepareRequest" | "sessionId">,
    ProxyStreamOptions {
  initialState: NonNullable<AgentOptions["initialState"]>;
}

export function createSessionAgent(options: SessionAgentOptions): Agent {
  const { router, onRequest, onAnswered, mirrorSpeed, sampling, initialState, ...hooks } = options;
  return new Agent({
    ...hooks,
    initialState: { ...initialState, tools: [...DEMO_TOOLS] },
    streamFn: createProxyStreamFn({
      router,
      onRequest,
      ...(onAnswered ? { onAnswered } : {}),
      ...(mirrorSpeed ? { mirrorSpeed } : {}),
      ...(sampling ? { sampling } : {}),
    }),
  });
}
