import type { AgentMessage } from "@earendil-works/pi-agent-core";

export interface UsageTotal {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  cost: number;
  replies: number;
}

/** What the session's model replies used and cost, summed from their own usage records. */
export function sumUsage(facts: readonly AgentMessage[]): UsageTotal {
  const total: UsageTotal = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, cost: 0, replies: 0 };
  for (const fact of facts) {
    if (fact.role !== "assistant") continue;
    total.input += fact.usage.input;
    total.output += fact.usage.output;
    total.cacheRead += fact.usage.cacheRead;
    total.cacheWrite += fact.usage.cacheWrite;
    total.cost += fact.usage.cost.total;
    total.replies++;
  }
  return total;
}
