import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { beforeAll, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { render } from "vitest-browser-svelte";
import type { ChatSession } from "../agent/chat-session.svelte.ts";
import {
  createApprovalRequest,
  createBashExecution,
  createBranchSummary,
  createCompactionSummary,
  createCustomMessage,
  createInjectedAssistantMessage,
  createNotification,
  createProgress,
  createUserMessage,
} from "../messages/factories.ts";
import { MESSAGE_KINDS, kindOf } from "../messages/kinds/index.ts";
import type { Workspace } from "../sessions/workspace.svelte.ts";
import { startTestWorkspace } from "../sessions/test-workspace.test-support.ts";
import PageContexts from "../view-state/PageContexts.test-support.svelte";
import MessageItem from "./MessageItem.svelte";
import type { PairedResult } from "./chat-items.ts";

/**
 * The chat's message item in Chromium, for a fact of every registered kind and of a role nobody
 * registered: each is drawn by its kind's view, found by its role and accessible name, and says what the
 * fact says.
 */

let workspace: Workspace;
let session: ChatSession;
beforeAll(async () => {
  ({ workspace, session } = await startTestWorkspace());
});

function show(message: AgentMessage, results: ReadonlyMap<string, PairedResult> = new Map()) {
  return render(PageContexts<Record<string, unknown>>, {
    props: {
      workspace,
      session,
      component: MessageItem as never,
      props: { message, index: 1, session, results, isLast: false },
    },
  });
}

const call = {
  ...createInjectedAssistantMessage("Let me look that up.", 2),
  content: [
    { type: "text" as const, text: "Let me look that up." },
    { type: "toolCall" as const, id: "call-1", name: "calculate", arguments: { expression: "6 * 7" } },
  ],
};
const result: AgentMessage = {
  role: "toolResult",
  toolCallId: "call-1",
  toolName: "calculate",
  content: [{ type: "text", text: "42" }],
  isError: false,
  timestamp: 3,
};

/** One fact per role, and how a person finds it on the page. */
const cases: { fact: AgentMessage; find: () => ReturnType<typeof page.getByRole>; says: string }[] = [
  {
    fact: {
      role: "system",
      content: "",
      toolsAdded: [{ name: "calculate", description: "Arithmetic", parameters: {} }],
      timestamp: 1,
    },
    find: () => page.getByRole("complementary", { name: "System message" }),
    says: "tools added: calculate",
  },
  {
    fact: createUserMessage("What is six times seven?", 1),
    find: () => page.getByRole("article", { name: "Your message" }),
    says: "What is six times seven?",
  },
  {
    fact: call,
    find: () => page.getByRole("article", { name: "Assistant reply" }),
    says: "Let me look that up.",
  },
  {
    fact: result,
    find: () => page.getByRole("complementary", { name: "Tool result of calculate" }),
    says: "calculate: 42",
  },
  {
    fact: createNotification("the build finished", "warning", 4),
    find: () => page.getByRole("complementary", { name: "Notification (warning)" }),
    says: "the build finished",
  },
  {
    fact: createApprovalRequest({ action: "Deploy to production", subject: "ticket 7" }, 5),
    find: () => page.getByRole("region", { name: "Approval request: Deploy to production" }),
    says: "ticket 7",
  },
  {
    fact: createProgress("indexing the repository", 0.5, 6),
    find: () => page.getByRole("complementary", { name: "Progress" }),
    says: "indexing the repository",
  },
  {
    fact: createBashExecution(
      { command: "ls -la", output: "total 0", exitCode: 2, cancelled: false, truncated: false },
      7,
    ),
    find: () => page.getByRole("region", { name: "Bash: ls -la" }),
    says: "ls -la",
  },
  {
    fact: createCustomMessage("calendar", "lunch at noon", true, undefined, 8),
    find: () => page.getByRole("region", { name: "Custom message calendar" }),
    says: "lunch at noon",
  },
  {
    fact: createBranchSummary("tried the other approach", "e1", 9),
    find: () => page.getByRole("region", { name: "Branch summary" }),
    says: "tried the other approach",
  },
  {
    fact: createCompactionSummary("we talked about lunch", 1234, 10),
    find: () => page.getByRole("region", { name: "Compaction summary" }),
    says: "we talked about lunch",
  },
  {
    fact: {
      role: "artifact",
      customType: "plan",
      body: "step one",
      timestamp: 11,
    } as unknown as AgentMessage,
    find: () => page.getByRole("region", { name: /Message of a role the playground does not know/ }),
    says: "step one",
  },
];

describe("MessageItem", () => {
  it("has a case for every registered kind, and one for a role nobody registered", () => {
    const roles = cases.map((shown) => shown.fact.role as string);
    expect(new Set(roles)).toEqual(new Set([...Object.keys(MESSAGE_KINDS), "artifact"]));
    expect(kindOf(cases.at(-1)!.fact).role).toBe("(unknown)");
  });

  it.each(cases.map((shown) => [shown.fact.role, shown] as const))(
    "draws a %s fact with its kind's view",
    async (_role, { fact, find, says }) => {
      const { unmount } = await show(fact);
      try {
        await expect.element(find()).toBeVisible();
        await expect.element(find()).toHaveTextContent(says);
      } finally {
        await unmount();
      }
    },
  );

  it("shows a tool call with the result paired to it", async () => {
    const { unmount } = await show(call, new Map([["call-1", { message: result, index: 2 }]]));
    try {
      const tool = page.getByRole("region", { name: "Tool call calculate" });
      await expect.element(tool).toBeVisible();
      await expect.element(tool.getByLabelText("Result of calculate")).toHaveTextContent("42");
    } finally {
      await unmount();
    }
  });

  it("offers Approve and Reject on a pending approval request", async () => {
    const { unmount } = await show(createApprovalRequest({ action: "Delete the branch" }, 12));
    try {
      const card = page.getByRole("region", { name: "Approval request: Delete the branch" });
      await expect.element(card.getByRole("button", { name: "Approve" })).toBeVisible();
      await expect.element(card.getByRole("button", { name: "Reject" })).toBeVisible();
    } finally {
      await unmount();
    }
  });
});
