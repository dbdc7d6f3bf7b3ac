import { expect, lastReply, openPlayground, sendMessage, test } from "./support.ts";

test("model output is rendered as sanitized Markdown: markup in a reply cannot run script", async ({
  page,
}) => {
  await openPlayground(page);
  // The mirror quotes the prompt back inside its Markdown reply, so this text comes back as model output.
  const attack = [
    "**bold** and a [safe link](https://pi.dev)",
    '<img src="x" onerror="window.__xss = 1">',
    "<script>window.__xss = 2</script>",
    "[click me](javascript:window.__xss=3)",
    '<a href="#" onclick="window.__xss=4">also me</a>',
  ].join("\n");
  await sendMessage(page, attack);
  const reply = lastReply(page);
  await expect(reply.locator("blockquote strong")).toHaveText("bold", { timeout: 20_000 });
  await expect(reply.getByRole("link", { name: "safe link" })).toHaveAttribute("rel", /noopener/);

  // The elements arrive (so the sanitizer did the work), stripped of everything that could run.
  await expect(reply.locator("blockquote img")).toHaveCount(1);
  await expect(reply.getByText("click me")).not.toHaveAttribute("href", /javascript/);
  const html = await reply.locator(".markdown").first().innerHTML();
  expect(html).not.toMatch(/onerror|onclick|<script|javascript:/i);
  for (const name of ["click me", "also me"]) {
    const link = reply.getByText(name);
    if ((await link.count()) > 0) await link.first().click();
  }
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
});
