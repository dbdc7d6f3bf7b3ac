import type { Page } from "@playwright/test";
import {
  expect,
  expectAccessible,
  expectNoHorizontalOverflow,
  factRow,
  lastReply,
  openPlayground,
  sendMessage,
  test,
} from "./support.ts";
import { playgroundSessionFile } from "./fixtures/session-files.ts";

/** A session file: a tool that returned a long log (about 10,000 tokens), then the answer. */
function sessionWithLargeToolResult(): string {
  const log = Array.from(
    { length: 800 },
    (_, line) => `2026-01-01T10:00:${line % 60}Z worker ${line}: ok`,
  ).join("\n");
  const usage = {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
  const reply = (content: unknown[], stopReason: string, timestamp: number) => ({
    role: "assistant",
    content,
    api: "mirror",
    provider: "mirror",
    model: "mirror-instant",
    usage,
    stopReason,
    timestamp,
  });
  const messages = [
    { role: "system", content: "You read logs for the user.", timestamp: 1 },
    { role: "user", content: [{ type: "text", text: "Read the worker log." }], timestamp: 2 },
    reply([{ type: "toolCall", id: "read_1", name: "read_log", arguments: {} }], "toolUse", 3),
    {
      role: "toolResult",
      toolCallId: "read_1",
      toolName: "read_log",
      content: [{ type: "text", text: log }],
      isError: false,
      timestamp: 4,
    },
    reply([{ type: "text", text: "Every worker reported ok." }], "stop", 5),
  ];
  return playgroundSessionFile("Worker log", messages);
}

async function openAnatomy(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Anatomy" }).click();
  await expect(page.getByRole("region", { name: "Anatomy" })).toBeVisible();
}

test("the anatomy traces a large tool result: largest category, billed at every call, a finding that links to it, one point per call", async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByLabel("Import a session file").setInputFiles({
    name: "worker-log.jsonl",
    mimeType: "application/json",
    buffer: Buffer.from(sessionWithLargeToolResult()),
  });
  await expect(page.getByRole("button", { name: /^Worker log/ })).toHaveAttribute("aria-current", "true");
  const turns = ["Which worker was first?", "And the last one?", "Summarize in one word."];
  for (const [index, turn] of turns.entries()) {
    await sendMessage(page, turn);
    await expect(lastReply(page)).toContainText(`I received ${7 + index * 2} messages`);
  }

  await openAnatomy(page);
  const anatomy = page.getByRole("region", { name: "Anatomy" });

  // Composition: the next call, then the last recorded one, whose total is the provider's count.
  const categories = anatomy.getByRole("table", { name: "Tokens by category" });
  await expect(categories.getByRole("row").nth(1).getByRole("rowheader")).toHaveText("tool results");
  await anatomy.getByRole("combobox", { name: "Request" }).selectOption("2");
  await expect(anatomy.getByText(/the provider's count/)).toBeVisible();
  await expect(categories.getByRole("row").nth(1).getByRole("rowheader")).toHaveText("tool results");
  await categories.getByRole("button", { name: "tool results" }).click();
  await expect(
    anatomy
      .getByRole("region", { name: "Facts in tool results" })
      .getByRole("button", { name: /^Fact 4 · toolResult/ }),
  ).toBeVisible();

  // Re-billing: the tool result first, carried by all three calls.
  const bills = anatomy.getByRole("table", { name: "Re-billing per fact" });
  const first = bills.getByRole("row").nth(1);
  await expect(first.getByRole("rowheader")).toHaveText(/^Fact 4 · toolResult · read_log/);
  await expect(first.getByRole("cell").first()).toHaveText("3");

  await expectAccessible(page, "anatomy of a session with calls");

  // Timeline: one point per call, in the chart and in its table.
  await expect(anatomy.locator("svg.chart circle.point")).toHaveCount(3);
  await anatomy.getByRole("button", { name: "Show as a table" }).click();
  await expect(anatomy.getByRole("table", { name: "Calls over time" }).getByRole("row")).toHaveCount(4);

  // The finding names the result and its cost, and leads to it in the facts list.
  const finding = anatomy.getByRole("listitem").filter({ hasText: /^A tool result of [\d,]+ tokens/ });
  await expect(finding).toContainText(/Sent 3 times \(calls #1 to #3\)/);
  await finding.getByRole("button", { name: "Show the tool result" }).click();
  await expect(page.getByRole("tab", { name: "Facts and model view" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(factRow(page, 4, "toolResult")).toHaveAttribute("aria-selected", "true");
});

test("a session without calls says so, and a fresh one shows the next call's estimate", async ({ page }) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  // The inspector's views are one tab stop, moved between with the arrow keys.
  await page.getByRole("tab", { name: "Facts and model view" }).focus();
  await page.keyboard.press("ArrowRight");
  await expect(page.getByRole("tab", { name: "Calls" })).toBeFocused();
  await page.keyboard.press("End");
  await expect(page.getByRole("tab", { name: "Variants" })).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Replay" })).toBeFocused();
  await page.keyboard.press("ArrowLeft");
  await expect(page.getByRole("tab", { name: "Anatomy" })).toBeFocused();
  const anatomy = page.getByRole("region", { name: "Anatomy" });
  await expect(anatomy.getByText(/an estimate/).first()).toBeVisible();
  await expect(anatomy.getByText(/No model call yet/)).toBeVisible();
  await expect(anatomy.getByText("No recorded call with its messages yet.")).toBeVisible();
  await expect(anatomy.getByRole("button", { name: "Export as LHAR (.lhar.json)" })).toBeDisabled();

  // On a phone the inspector is a tab; the anatomy fits it without scrolling sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole("tab", { name: "Inspector" }).click();
  await page.getByRole("tab", { name: "Anatomy" }).click();
  await expect(anatomy.getByRole("table", { name: "Tokens by category" })).toBeVisible();
  await expectNoHorizontalOverflow(page, "anatomy on a phone");
});
