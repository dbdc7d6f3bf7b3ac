import {
  expect,
  lastReply,
  openPlayground,
  readStoredFacts,
  sendMessage,
  test,
  recordStreamRequests,
} from "./support.ts";

test("a gated tool waits for approval: Reject blocks it with the reason, Approve runs it, and the trail survives a reload", async ({
  page,
}) => {
  const requests = await recordStreamRequests(page);
  await openPlayground(page);

  await sendMessage(page, "Save a note: ship on Friday");
  const first = page.getByRole("region", { name: "Approval request: Run save_note" }).first();
  await expect(first).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  await expect(first.getByLabel("What the model will see")).toContainText(
    "The user rejected the call to save_note",
  );
  await first.getByRole("textbox", { name: "Reason for rejecting" }).fill("we never ship on Fridays");
  await first.getByRole("button", { name: "Reject" }).click();
  await expect(first).toHaveAttribute("data-status", "rejected");
  await expect(page.getByLabel("Result of save_note").first()).toContainText(
    "The user rejected the call to save_note: we never ship on Fridays",
  );
  await expect(lastReply(page)).toContainText("save_note failed", { timeout: 15_000 });
  expect(requests.at(-1)).toContain("The user rejected the call to save_note: we never ship on Fridays");

  await sendMessage(page, "Save a note: ship on Monday");
  const second = page.getByRole("region", { name: "Approval request: Run save_note" }).nth(1);
  await expect(second).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  await second.getByRole("button", { name: "Approve" }).click();
  await expect(page.getByLabel("Result of save_note").nth(1)).toHaveText("Saved note #1: ship on Monday", {
    timeout: 15_000,
  });
  await expect(lastReply(page)).toContainText("save_note returned: Saved note #1: ship on Monday", {
    timeout: 15_000,
  });

  await page.reload();
  const cards = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toHaveAttribute("data-status", "rejected");
  await expect(cards.nth(0)).toContainText("Reason: we never ship on Fridays");
  await expect(cards.nth(1)).toHaveAttribute("data-status", "approved");
});

test("Stop while a tool waits for approval rejects it cleanly", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, "Save a note: maybe");
  const card = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  await page.getByRole("button", { name: "Stop" }).click();
  await expect(card).toHaveAttribute("data-status", "rejected");
  await expect(card).toContainText("the run was stopped before anyone decided");
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();

  await page.reload();
  const stored = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(stored).toHaveAttribute("data-status", "rejected");
  await expect(stored).toContainText("the run was stopped before anyone decided");
});

test("a reload while a tool waits for approval keeps the pending request, which can still be decided", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, "Save a note: reload me");
  const card = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });
  await page.reload();

  await expect(card).toHaveAttribute("data-status", "pending");
  await expect(card).toContainText("No run is waiting on this request any more");
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(card).toHaveAttribute("data-status", "rejected");
  await page.reload();
  await expect(card).toHaveAttribute("data-status", "rejected");
  const stored = await readStoredFacts(page);
  expect(stored.filter((fact) => (fact as { role: string }).role === "approval_request")).toHaveLength(1);
});

test("the a shortcut reaches the pending approval even when it is outside the chat's rendered window", async ({
  page,
}) => {
  await openPlayground(page);
  // A long exchange first, then a request that waits for approval at the end of it.
  await sendMessage(page, `a long one\n\n${Array.from({ length: 60 }, (_, n) => `line ${n}`).join("\n\n")}`);
  await expect(lastReply(page)).toContainText("line 59", { timeout: 15_000 });
  await sendMessage(page, "Save a note: ship on Friday");
  const card = page.getByRole("region", { name: "Approval request: Run save_note" });
  await expect(card).toHaveAttribute("data-status", "pending", { timeout: 15_000 });

  // The reader goes back to the top: the card is no longer rendered at all.
  const log = page.getByRole("log", { name: "Messages" });
  await log.hover();
  for (let turn = 0; turn < 20 && (await card.count()) > 0; turn++) await page.mouse.wheel(0, -4000);
  await expect(card).toHaveCount(0);
  await page.getByRole("heading", { name: "pi playground" }).click();

  await page.keyboard.press("a");
  const approve = card.getByRole("button", { name: "Approve" });
  await expect(approve).toBeFocused();
  await expect(approve).toBeInViewport();
  await page.keyboard.press("Enter");
  await expect(card).toHaveAttribute("data-status", "approved");

  // Nothing waits now: the shortcut says so rather than doing nothing.
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 15_000 });
  await page.getByRole("heading", { name: "pi playground" }).click();
  await page.keyboard.press("a");
  await expect(
    page.getByRole("status").filter({ hasText: "No tool call is waiting for approval." }),
  ).toBeVisible();
});
