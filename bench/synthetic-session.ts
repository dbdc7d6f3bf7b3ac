import type { AgentMessage } from "@earendil-works/pi-agent-core";
import type { AssistantMessage } from "@earendil-works/pi-ai";
import type { SessionEntry } from "../src/lib/messages/entries.ts";

/**
 * A realistic session of `count` facts for benchmarks: turns of user prompt, assistant reply with a tool
 * call, tool result (a few kB, like a file read) and final answer, sprinkled with the custom types (notifications, bash, progress,
 * approvals, custom messages), each about the size of a real one.
 */
export function syntheticFacts(count: number, seed = 1): AgentMessage[] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const words = (n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        ["alpha", "beta", "gamma", "delta", "omega", "tool", "model", "fact"][
          (i + Math.floor(random() * 8)) % 8
        ],
    ).join(" ");
  const usage = {
    input: 120,
    output: 40,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 160,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const reply = (content: AssistantMessage["content"], timestamp: number): AssistantMessage => ({
    role: "assistant",
    content,
    api: "mirror",
    provider: "mirror",
    model: "mirror",
    usage,
    stopReason: content.some((block) => block.type === "toolCall") ? "toolUse" : "stop",
    timestamp,
  });

  const facts: AgentMessage[] = [
    { role: "system", content: `You are a benchmark assistant. ${words(30)}`, timestamp: 0 },
  ];
  let t = 1;
  while (facts.length < count) {
    const kind = facts.length % 11;
    t++;
    switch (kind) {
      case 1:
        facts.push({ role: "user", content: [{ type: "text", text: words(25) }], timestamp: t });
        break;
      case 2:
        facts.push(
          reply(
            [
              { type: "text", text: words(20) },
              {
                type: "toolCall",
                id: `call_${t}`,
                name: "read_file",
                arguments: { path: `src/module-${t % 97}.ts` },
              },
            ],
            t,
          ),
        );
        break;
      case 3:
        facts.push({
          role: "toolResult",
          toolCallId: `call_${t - 1}`,
          toolName: "read_file",
          // A file's worth of output, as coding agents' tool results mostly are: a few kB each.
          content: [{ type: "text", text: words(450) }],
          isError: false,
          timestamp: t,
        });
        break;
      case 4:
        facts.push(reply([{ type: "text", text: words(60) }], t));
        break;
      case 5:
        facts.push({ role: "notification", text: words(8), level: "info", timestamp: t });
        break;
      case 6:
        facts.push({
          role: "bashExecution",
          command: "npm test",
          output: words(80),
          exitCode: random() < 0.3 ? 1 : 0,
          cancelled: false,
          truncated: false,
          excludeFromContext: random() < 0.2,
          timestamp: t,
        });
        break;
      case 7:
        facts.push({ role: "progress", text: words(5), fraction: random(), timestamp: t });
        break;
      case 8:
        facts.push({
          role: "custom",
          customType: "context",
          content: words(30),
          display: random() < 0.5,
          timestamp: t,
        });
        break;
      case 9:
        facts.push({
          role: "approval_request",
          action: "Run save_note",
          status: "approved",
          subject: words(4),
          decidedAt: t,
          timestamp: t,
        });
        break;
      default:
        facts.push({ role: "user", content: [{ type: "text", text: words(12) }], timestamp: t });
    }
  }
  return facts.slice(0, count);
}

/**
 * A session tree of `count` entries with `branches` branches, as a long pi session that was branched
 * often looks: each branch leaves the one before it half-way along, and carries the entries that are not
 * facts (model and thinking changes, labels, context edits) among its messages. Returns the entries in
 * order of creation and the leaf (the end of the last branch).
 */
export function syntheticTree(
  count: number,
  branches: number,
  seed = 1,
): { entries: SessionEntry[]; leafId: string } {
  const facts = syntheticFacts(count, seed);
  const perBranch = Math.ceil(count / branches);
  const entries: SessionEntry[] = [];
  const timestamp = new Date(0).toISOString();
  let branchStart = 0;
  let parentId: string | null = null;
  for (let index = 0; index < count; index++) {
    const id = `e${index}`;
    const inBranch = index - branchStart;
    if (inBranch === perBranch) {
      // A new branch, from half-way along the one before it.
      parentId = `e${branchStart + Math.floor(perBranch / 2)}`;
      branchStart = index;
    }
    const base = { id, parentId, timestamp };
    const previous = parentId ?? id;
    switch (index % 97) {
      case 13:
        entries.push({ ...base, type: "thinking_level_change", thinkingLevel: "high" });
        break;
      case 29:
        entries.push({ ...base, type: "model_change", provider: "mirror", modelId: "mirror" });
        break;
      case 53:
        entries.push({ ...base, type: "label", targetId: previous, label: `mark ${index}` });
        break;
      case 71:
        entries.push({
          ...base,
          type: "context_edit",
          targetId: previous,
          replacement: { content: "edited for the model" },
        });
        break;
      default:
        entries.push({ ...base, type: "message", message: facts[index] as AgentMessage });
    }
    parentId = id;
  }
  return { entries, leafId: entries.at(-1)?.id ?? "" };
}
