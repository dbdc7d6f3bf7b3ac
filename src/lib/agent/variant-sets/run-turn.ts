import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage, AssistantMessageEvent, Tool } from "@earendil-works/pi-ai";
import { samplingOptions } from "../../../shared/sampling-params.ts";
import { convertToLlm } from "../../messages/convert.ts";
import type { CallRecord } from "../../storage/records.ts";
import { runSideCall, type VariantHost } from "../rerun/run-variant.ts";
import { columnContext, type ColumnTurn, type VariantLink } from "./variant-set.ts";

export interface ColumnTurnHost extends VariantHost {
  /** The session's context on its branch now: what every column's first turn follows. */
  base: () => readonly AgentMessage[];
  leafId: () => string | null;
  /** The session's tools of these names, as declared to a model. */
  toolsNamed: (names: readonly string[]) => Promise<Tool[]>;
}

export const MOVED_ON =
  "The session is on another branch now: go back to the branch these variants compare over to send them more.";

/**
 * One column's turn: its request built as a run of the session would build it, but with the column's
 * system prompt, tools, policies, model, thinking level and sampling, over the base facts and the
 * column's earlier turns; streamed and recorded as a call carrying its link (see `runSideCall`).
 */
export async function runColumnTurn(
  host: ColumnTurnHost,
  link: VariantLink,
  earlier: readonly ColumnTurn[],
  signal: AbortSignal,
  onEvent?: (event: AssistantMessageEvent) => void,
  at = Date.now(),
): Promise<{ call: CallRecord; reply: AssistantMessage }> {
  if (host.leafId() !== link.baseLeafId) throw new Error(MOVED_ON);
  const { setup } = link;
  const tools = await host.toolsNamed(setup.tools);
  const turns = [...earlier, { prompt: link.prompt, at, reply: undefined }];
  const { context } = columnContext(host.base(), setup.systemPrompt, turns, tools);
  const model = host.modelOf(setup.model);
  const options: Record<string, unknown> = {
    ...samplingOptions(setup.sampling, model.api),
    ...(setup.thinkingLevel === "off" ? {} : { reasoning: setup.thinkingLevel }),
    sessionId: host.sessionId,
  };
  return runSideCall(
    host,
    {
      provider: setup.model.provider,
      modelId: setup.model.id,
      messages: convertToLlm(context, setup.policies),
      options,
    },
    { leafId: link.baseLeafId, link: { variantSet: link }, what: "variant", ...(onEvent ? { onEvent } : {}) },
    signal,
  );
}
