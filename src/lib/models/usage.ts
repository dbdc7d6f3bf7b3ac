import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage, Usage } from "@earendil-works/pi-ai";
import { startsWith } from "../../shared/starts-with.ts";
import { messageTokens } from "../messages/tokens.ts";

/**
 * Token numbers as the playground counts them, wherever they are shown: input not served from a cache,
 * input read from a cache, input written to one, and output, each on its own (providers report them
 * apart; adding cached input to "in" would count what the provider bills differently as the same).
 */
export interface TokenCounts {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  /**
   * The output is an estimate from what streamed: a reply stopped (or cut off by an error) before the
   * provider reported any usage carries zeros, yet its text reached the page.
   */
  outputEstimated: boolean;
  cost: number;
}

export interface UsageTotal extends TokenCounts {
  replies: number;
}

const NOTHING_REPORTED = (usage: Usage) =>
  usage.input === 0 && usage.output === 0 && usage.cacheRead === 0 && usage.cacheWrite === 0;

/**
 * The output of a reply that ended without the provider's usage (stopped, or failed mid-stream), as
 * estimated from what streamed; undefined when the provider reported usage or nothing streamed.
 */
export function streamedOutputEstimate(reply: AssistantMessage): number | undefined {
  if (reply.stopReason !== "aborted" && reply.stopReason !== "error") return undefined;
  if (!NOTHING_REPORTED(reply.usage)) return undefined;
  const estimate = messageTokens(reply);
  return estimate > 0 ? estimate : undefined;
}

/** The counts of a provider's usage record, with the output replaced by an estimate when one is given. */
export function tokenCounts(usage: Usage, outputEstimate?: number): TokenCounts {
  return {
    input: usage.input,
    cacheRead: usage.cacheRead,
    cacheWrite: usage.cacheWrite,
    output: outputEstimate ?? usage.output,
    outputEstimated: outputEstimate !== undefined,
    // Usage from older pi versions and OpenAI-compatible servers may carry no cost: pi reads it so, and
    // it counts as none here.
    cost: costOf(usage),
  };
}

/** A usage record's cost in dollars; 0 where the record has none (read from a file as pi reads it). */
export function costOf(usage: Usage): number {
  const total: unknown = (usage as { cost?: { total?: unknown } }).cost?.total;
  return typeof total === "number" && Number.isFinite(total) ? total : 0;
}

/** One reply's counts: its usage record, or what streamed when it was stopped before any usage came. */
export function replyTokens(reply: AssistantMessage): TokenCounts {
  return tokenCounts(reply.usage, streamedOutputEstimate(reply));
}

/** What the session's model replies used and cost, summed from their own usage records. */
export function sumUsage(facts: readonly AgentMessage[]): UsageTotal {
  return addUsage(emptyTotal(), facts);
}

/**
 * `sumUsage` kept up to date as a session grows: a list that only grew at its end (the same facts, object
 * for object, then new ones) adds the new replies to the last total; any other change sums again. A long
 * session's header would otherwise walk every fact on each new one.
 */
export class UsageSummer {
  #facts: readonly AgentMessage[] = [];
  #total: UsageTotal = emptyTotal();

  sum(facts: readonly AgentMessage[]): UsageTotal {
    const before = this.#facts;
    this.#facts = facts;
    if (startsWith(facts, before)) {
      if (facts.length > before.length)
        this.#total = addUsage({ ...this.#total }, facts.slice(before.length));
    } else this.#total = sumUsage(facts);
    return this.#total;
  }
}

function emptyTotal(): UsageTotal {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, outputEstimated: false, cost: 0, replies: 0 };
}

/** Adds the replies among `facts` to `total` (changed in place) and returns it. */
function addUsage(total: UsageTotal, facts: readonly AgentMessage[]): UsageTotal {
  for (const fact of facts) {
    if (fact.role !== "assistant") continue;
    const counts = replyTokens(fact);
    total.input += counts.input;
    total.output += counts.output;
    total.cacheRead += counts.cacheRead;
    total.cacheWrite += counts.cacheWrite;
    total.outputEstimated ||= counts.outputEstimated;
    total.cost += counts.cost;
    total.replies++;
  }
  return total;
}
