import { expect, lastReply, openPlayground, pickModel, sendMessage, test } from "./support.ts";

test("every answer of the server says it cannot be framed or sniffed: pages, files and the API", async ({
  request,
}) => {
  const html = await request.get("/");
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(await html.text())?.[1] ?? "";
  const answers = {
    page: html,
    script: await request.get(script),
    session: await request.get("/api/session"),
    models: await request.get("/api/models"),
    "API error": await request.get("/api/nope"),
    "refused stream": await request.post("/api/stream", { data: {} }),
  };
  for (const [what, response] of Object.entries(answers)) {
    const headers = response.headers();
    expect(headers["x-frame-options"], what).toBe("DENY");
    expect(headers["content-security-policy"], what).toContain("frame-ancestors 'none'");
    expect(headers["x-content-type-options"], what).toBe("nosniff");
    expect(headers["referrer-policy"], what).toBe("no-referrer");
  }
  expect(answers["refused stream"].status()).toBe(401);
  expect(answers.session.headers()["cache-control"]).toBe("no-store");
});

test("a key the provider echoes in its reply reaches the page scrubbed", async ({ page }) => {
  const key = "e2k";
  const streamed: string[] = [];
  // What the proxy answers, read on its way to the page (reading a streamed body back from the browser
  // afterwards can come up empty on a busy machine).
  await page.route("**/api/stream", async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    streamed.push(body);
    await route.fulfill({ response, body });
  });
  await openPlayground(page);
  await pickModel(page, "fixture-echo-auth", /fixture-echo-auth/);
  await sendMessage(page, "What did I send you?");
  await expect(lastReply(page)).toContainText("You sent: Authorization: Bearer [redacted]", {
    timeout: 15_000,
  });
  expect(streamed.join("")).toContain("[redacted]");
  expect(streamed.join("")).not.toContain(key);
  expect(await lastReply(page).textContent()).not.toContain(key);
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
