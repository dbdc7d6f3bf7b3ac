import type { AgentMessage, BeforeToolCallContext } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import { createInjectedAssistantMessage } from "../messages/factories.ts";
import type { ApprovalRequestMessage } from "../messages/types.ts";
import { ToolApprovals } from "./tool-approvals.svelte.ts";

function setup(gated: string[]) {
  const recorded: ApprovalRequestMessage[] = [];
  const settled: ApprovalRequestMessage[] = [];
  const loop: AgentMessage[] = [];
  const approvals = new ToolApprovals({
    requiresApproval: (name) => gated.includes(name),
    record: (request) => {
      recorded.push(request);
    },
    settle: (_request, outcome) => settled.push(outcome),
  });
  const call = (name: string, id = "call-1"): BeforeToolCallContext => ({
    assistantMessage: createInjectedAssistantMessage(""),
    toolCall: { type: "toolCall", id, name, arguments: { text: "x" } },
    args: { text: "x" },
    context: { messages: loop },
  });
  return { approvals, recorded, settled, loop, call };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("ToolApprovals", () => {
  it("lets ungated tools through without a record", async () => {
    const { approvals, recorded, call } = setup(["save_note"]);
    expect(await approvals.gate(call("calculate"))).toBeUndefined();
    expect(recorded).toEqual([]);
  });

  it("records a pending request and waits; approval lets the call run", async () => {
    const { approvals, recorded, settled, call } = setup(["save_note"]);
    const gate = approvals.gate(call("save_note"));
    await tick();
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({
      role: "approval_request",
      action: "Run save_note",
      status: "pending",
      toolCallId: "call-1",
    });
    expect(approvals.isWaiting("call-1")).toBe(true);
    expect(approvals.resolve("call-1", { status: "approved" })).toBe(true);
    expect(await gate).toBeUndefined();
    expect(settled[0]).toMatchObject({ status: "approved", decidedAt: expect.any(Number) });
    expect(approvals.isWaiting("call-1")).toBe(false);
  });

  it("blocks a rejected call with the reason the model will read", async () => {
    const { approvals, settled, call } = setup(["save_note"]);
    const gate = approvals.gate(call("save_note"));
    await tick();
    approvals.resolve("call-1", { status: "rejected", reason: "not today" });
    expect(await gate).toEqual({
      block: true,
      reason: "The user rejected the call to save_note: not today. The tool did not run.",
    });
    expect(settled[0]).toMatchObject({ status: "rejected", reason: "not today" });
  });

  it("rejects when the run is stopped before anyone decides", async () => {
    const { approvals, settled, call } = setup(["save_note"]);
    const controller = new AbortController();
    const gate = approvals.gate(call("save_note"), controller.signal);
    await tick();
    controller.abort();
    expect(await gate).toMatchObject({ block: true });
    expect(settled[0]).toMatchObject({
      status: "rejected",
      reason: "the run was stopped before anyone decided",
    });
  });

  it("says when no call waits on a decision", () => {
    const { approvals } = setup([]);
    expect(approvals.resolve("nobody", { status: "approved" })).toBe(false);
    expect(approvals.resolve(undefined, { status: "approved" })).toBe(false);
  });
});
