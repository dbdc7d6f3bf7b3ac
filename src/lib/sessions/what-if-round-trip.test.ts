import { describe, expect, it } from "vitest";
import { defaultSettings } from "../agent/session-settings.ts";
import {
  defaultToolDefinitions,
  sessionToolsRead,
  type ToolDefinition,
} from "../agent/tools/tool-definitions.ts";
import { variantSetsOf, type ColumnSetup, type VariantLink } from "../agent/variant-sets/variant-set.ts";
import type { CallRecord, NewCall } from "../storage/records.ts";
import { exportSession } from "./export-format.ts";
import { parseSessionFile } from "./import-file.ts";
import { call, snapshot } from "./session-file.test-support.ts";

// What "what if" adds to a session: tools defined in the page, re-runs of calls and comparisons of variants
// (both kept as calls linked to what they vary). Replays are entries of the session's tree; their round
// trip through a file is shown end to end by e2e/replay.spec.ts.

const userTools: ToolDefinition[] = [
  ...defaultToolDefinitions().map((tool) => (tool.name === "calculate" ? { ...tool, enabled: false } : tool)),
  {
    name: "ask_human",
    description: "Asks the person.",
    parameters: { type: "object", properties: { question: { type: "string" } } },
    source: { kind: "ask" },
    enabled: true,
  },
  {
    name: "lookup_order",
    description: "Looks an order up.",
    parameters: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
    source: { kind: "template", template: '{"id": {{id}}, "status": "shipped"}' },
    enabled: true,
  },
];
const settings = {
  ...defaultSettings(),
  sampling: { temperature: 0.2, params: { top_p: 0.9 } },
  tools: userTools,
};

const column = (label: string, systemPrompt: string): ColumnSetup => ({
  label,
  model: { provider: "mirror", id: "mirror" },
  thinkingLevel: "off",
  systemPrompt,
  policies: defaultSettings().context.policies,
  sampling: { maxTokens: 300 },
  tools: ["ask_human"],
});

function linked(id: string, startedAt: number, link: Partial<CallRecord>): NewCall {
  return { summary: { ...call.summary, id, startedAt, ...link }, body: call.body };
}

const variantLink = (columnIndex: number, setup: ColumnSetup): VariantLink => ({
  set: "set-1",
  column: columnIndex,
  turn: 0,
  prompt: "what changed?",
  baseLeafId: null,
  setup,
});

const calls: NewCall[] = [
  call,
  linked("rerun-1", 20, { variantOf: "call-1" }),
  linked("variant-a", 30, { variantSet: variantLink(0, column("A", "Be brief.")) }),
  linked("variant-b", 31, { variantSet: variantLink(1, column("B", "Answer like a pirate.")) }),
];

const records = (kept: readonly NewCall[]): CallRecord[] =>
  kept.map((one, seq) => ({ ...one.summary, schema: 1, sessionId: "s", seq }) as CallRecord);

describe("what if, through a file", () => {
  it.each(["jsonl", "json"] as const)(
    "tools defined in the page, re-runs and variants survive export then import (%s)",
    (kind) => {
      const session = snapshot({ settings, calls });
      const parsed = parseSessionFile(exportSession(session, kind, 0).text, `x.${kind}`);
      expect(parsed.problems).toEqual([]);

      // The tools come back as the session defined them, and read as valid definitions, not merely carried.
      expect(parsed.settings?.tools).toEqual(userTools);
      const read = sessionToolsRead(parsed.settings?.tools);
      expect(read.problems).toEqual([]);
      expect(read.tools).toEqual(userTools);
      expect(parsed.settings?.sampling).toEqual(settings.sampling);

      // Every call with its link: the re-run names its original, the comparison is rebuilt from its calls.
      expect(parsed.calls).toEqual(calls);
      expect(parsed.calls?.find((one) => one.summary.id === "rerun-1")?.summary.variantOf).toBe("call-1");
      const sets = variantSetsOf(records(parsed.calls ?? []));
      expect(sets).toEqual(variantSetsOf(records(calls)));
      expect(sets).toHaveLength(1);
      expect(sets[0]?.prompts).toEqual(["what changed?"]);
      expect(sets[0]?.columns.map((one) => one.setup.systemPrompt)).toEqual([
        "Be brief.",
        "Answer like a pirate.",
      ]);
    },
  );
});
