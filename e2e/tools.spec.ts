import { expect, lastReply, openPlayground, sendMessage, test } from "./support.ts";

test("asking the time runs the tool loop: call, result, final answer", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, "What time is it?");

  const call = page.getByRole("region", { name: "Tool call current_time" });
  await expect(call).toBeVisible({ timeout: 15_000 });
  await expect(
    call
      .getByRole("region", { name: "Result of current_time" })
      .or(call.getByLabel("Result of current_time")),
  ).toContainText(/\d{4}-\d{2}-\d{2}T/);
  await expect(lastReply(page)).toContainText("current_time returned:", { timeout: 15_000 });
  await expect(lastReply(page)).toContainText("system, user, assistant, toolResult");
});

test("arithmetic goes through the calculate tool, errors included", async ({ page }) => {
  await openPlayground(page);
  await sendMessage(page, "compute 12 * (3 + 4)");
  await expect(page.getByLabel("Result of calculate")).toHaveText("12 * (3 + 4) = 84", { timeout: 15_000 });
  await expect(lastReply(page)).toContainText("returned: 12 * (3 + 4) = 84", { timeout: 15_000 });

  await sendMessage(page, "what is 1 / 0");
  const failed = page.getByRole("region", { name: "Tool call calculate" }).last();
  await expect(failed).toHaveAttribute("data-status", "error", { timeout: 15_000 });
  await expect(lastReply(page)).toContainText('calculate failed: "1 / 0" has no finite value', {
    timeout: 15_000,
  });
});
