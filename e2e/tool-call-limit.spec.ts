import { expect, expectAccessible, openPlayground, readStoredFacts, sendMessage, test } from "./support.ts";

test("a run that reaches the limit of tool calls in a row is stopped before the model is asked again, and says so", async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Tools" }).click();
  const dialog = page.getByRole("dialog", { name: "Tools" });
  const limit = dialog.getByRole("spinbutton", { name: "Stop a run after tool calls in a row" });
  await expect(limit).toHaveValue("50");
  // A limit that is not one is refused where it was typed, and the old one stays.
  await limit.fill("0");
  await limit.press("Tab");
  await expect(dialog.getByRole("alert")).toHaveText(
    "The limit must be a whole number from 1 to 10,000; it stays 50.",
  );
  await expect(limit).toHaveAttribute("aria-invalid", "true");
  await expectAccessible(page, "tools dialog with a refused limit");
  await limit.fill("1");
  await limit.press("Tab");
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Close" }).click();

  const streamed: string[] = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/stream")) streamed.push(request.url());
  });
  await sendMessage(page, "What is 12 * (3 + 4)?");
  await expect(page.getByLabel("Result of calculate")).toHaveText("12 * (3 + 4) = 84", { timeout: 15_000 });
  await expect(
    page.getByRole("alert").filter({ hasText: "The run was stopped after 1 tool call in a row" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  const facts = (await readStoredFacts(page)) as { role: string }[];
  expect(facts.at(-1)?.role).toBe("toolResult");
  expect(streamed).toHaveLength(1);

  // Remembered by the page: a reload keeps the limit.
  await page.reload();
  await page.getByRole("button", { name: "Tools" }).click();
  await expect(
    page
      .getByRole("dialog", { name: "Tools" })
      .getByRole("spinbutton", { name: "Stop a run after tool calls in a row" }),
  ).toHaveValue("1");
});
