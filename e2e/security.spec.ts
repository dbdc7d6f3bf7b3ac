import { expect, openPlayground, test } from "./support.ts";

test("the page cannot be framed by another site, and says so in its headers", async ({ request }) => {
  const response = await request.get("/");
  expect(response.headers()["x-frame-options"]).toBe("DENY");
  expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
});

test.describe("a foreign page that frames the playground", () => {
  test.use({ allowConsoleErrors: ["Refused to display", "frame-ancestors"] });

  test("gets nothing: the frame stays empty", async ({ page, baseURL }) => {
    // setContent returns once the page and its frames have loaded: the refusal has happened by then.
    await page.setContent(`<iframe title="framed" src="${baseURL}/"></iframe>`, { waitUntil: "load" });
    const frame = page.frameLocator("iframe");
    await expect(frame.getByRole("textbox", { name: "Message" })).toHaveCount(0);
  });
});

test("the page's scripts come only from its own origin; it connects only over http(s), to a proxy anywhere", async ({
  page,
}) => {
  await openPlayground(page);
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
  const directives = new Map(
    (policy ?? "").split(";").map((directive) => {
      const [name = "", ...values] = directive.trim().split(/\s+/);
      return [name, values.join(" ")] as const;
    }),
  );
  expect(directives.get("script-src")).toBe("'self'");
  expect(directives.get("connect-src")).toBe("'self' http: https:");
  expect(directives.get("object-src")).toBe("'none'");
});
