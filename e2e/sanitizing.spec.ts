import { expect, lastReply, openPlayground, sendMessage, test } from "./support.ts";

test("model output is rendered as safe Markdown: markup in a reply is shown as text and cannot run script", async ({
  page,
}) => {
  // Every Content-Security-Policy violation is recorded: sanitizing must not even attempt what the CSP forbids.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener("securitypolicyviolation", (event) =>
      seen.push(`${event.violatedDirective}: ${event.sample}`),
    );
  });
  await openPlayground(page);
  // The mirror quotes the prompt back inside its Markdown reply, so this text comes back as model output.
  const attack = [
    "**bold** and a [safe link](https://pi.dev)",
    '<img src="x" onerror="window.__xss = 1">',
    "<script>window.__xss = 2</script>",
    "[click me](javascript:window.__xss=3)",
    '<a href="#" onclick="window.__xss=4">also me</a>',
    '<svg onload="window.__xss=5"></svg> ![pixel](https://tracker.example/p.png)',
  ].join("\n");
  await sendMessage(page, attack);
  const reply = lastReply(page);
  await expect(reply.locator("blockquote strong")).toHaveText("bold", { timeout: 20_000 });
  await expect(reply.getByRole("link", { name: "safe link" })).toHaveAttribute("rel", /noopener/);

  // Raw HTML in model output is text: it is shown as written, and no element is made of it.
  await expect(reply.locator("blockquote")).toContainText('<img src="x" onerror="window.__xss = 1">');
  await expect(reply.locator("blockquote")).toContainText("<script>window.__xss = 2</script>");
  await expect(reply.locator("blockquote img, blockquote script, blockquote svg")).toHaveCount(0);
  // An image is offered as a link rather than fetched from a model-chosen address.
  await expect(reply.getByRole("link", { name: "image: pixel" })).toHaveAttribute(
    "href",
    "https://tracker.example/p.png",
  );
  await expect(reply.getByText("click me")).not.toHaveAttribute("href", /javascript/);
  const html = await reply.locator(".markdown").first().innerHTML();
  expect(html).not.toMatch(/<[^>]+\son\w+=|<script|javascript:/i);
  await reply.getByText("click me").click();
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual(
    [],
  );
});
