import type { APIRequestContext } from "@playwright/test";
import { FIXTURE_PORT } from "./ports.ts";
import { expect, lastReply, openPlayground, pickModel, sendMessage, test } from "./support.ts";

/** The loopback OpenAI-compatible fixture that playwright.config.ts starts and configures as the local server. */
const FIXTURE = `http://127.0.0.1:${FIXTURE_PORT}`;

interface FixtureLog {
  requests: {
    headers: Record<string, string>;
    body: { model: string; messages: { role: string; content: unknown }[] };
  }[];
}

async function fixtureLog(request: APIRequestContext): Promise<FixtureLog> {
  return (await (await request.get(`${FIXTURE}/__requests`)).json()) as FixtureLog;
}

test.beforeEach(async ({ request }) => {
  await request.post(`${FIXTURE}/__reset`);
});

test("a local OpenAI-compatible model runs the whole tool loop through the proxy, and receives the model view", async ({
  page,
  request,
}) => {
  await openPlayground(page);
  await pickModel(page, "fixture-tools", /fixture-tools/);
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  const modelViewToggle = page
    .getByRole("region", { name: "Model view" })
    .getByRole("button", { name: "JSON" });
  await modelViewToggle.click();
  const modelView = JSON.parse((await page.getByLabel("Model view as JSON").textContent()) ?? "[]") as {
    role: string;
    content: string;
  }[];

  await sendMessage(page, "What time is it?");
  await expect(page.getByLabel("Result of current_time")).toContainText(/\d{4}-\d{2}-\d{2}T/, {
    timeout: 15_000,
  });
  await expect(lastReply(page)).toContainText("The tool answered:", { timeout: 15_000 });
  await expect(lastReply(page)).toContainText("local/fixture-tools");

  const log = await fixtureLog(request);
  expect(log.requests).toHaveLength(2);
  const [first, second] = log.requests;
  // The first request carries the model view (the system prompt) plus the new prompt, in OpenAI's shape.
  expect(first?.body.model).toBe("fixture-tools");
  expect(first?.body.messages).toEqual([
    { role: "system", content: modelView[0]?.content },
    { role: "user", content: [{ type: "text", text: "What time is it?" }] },
  ]);
  expect(modelView).toHaveLength(1);
  // The second carries the tool call and the result the browser computed.
  expect(second?.body.messages.map((message) => message.role)).toEqual([
    "system",
    "user",
    "assistant",
    "tool",
  ]);
  expect(String(second?.body.messages[3]?.content)).toMatch(/\d{4}-\d{2}-\d{2}T/);
  // The page's proxy token authorizes the page to the proxy only; it is never forwarded upstream.
  const { token } = (await (await request.get("/api/session")).json()) as { token: string };
  expect(JSON.stringify(log.requests)).not.toContain(token);
});

test("API keys never reach the page: not in the model list, the session, the HTML or the scripts", async ({
  page,
  request,
}) => {
  const key = process.env.E2E_FAKE_OPENAI_KEY ?? "sk-e2e-fake-key-never-leaves-the-server";
  const seen: string[] = [];
  page.on("response", async (response) => {
    if (response.request().resourceType() !== "image") seen.push(await response.text().catch(() => ""));
  });
  await openPlayground(page);
  const models = (await (await request.get("/api/models")).json()) as { models: { provider: string }[] };
  expect(models.models.some((model) => model.provider === "openai")).toBe(true);
  expect(seen.length).toBeGreaterThan(3);
  expect(seen.join("\n")).not.toContain(key);
  expect(JSON.stringify(models)).not.toContain(key);
  expect(await page.content()).not.toContain(key);
});

test("a provider error is shown with an actionable message and Retry", async ({ page, request }) => {
  await openPlayground(page);
  await pickModel(page, "fixture-401", /fixture-401/);
  await sendMessage(page, "hello");
  await expect(lastReply(page).getByRole("alert")).toContainText("Provider returned 401: ", {
    timeout: 15_000,
  });
  await expect(lastReply(page).getByRole("alert")).toContainText("Incorrect API key");

  await pickModel(page, "fixture-tools", /fixture-tools/);
  await lastReply(page).getByRole("button", { name: "Retry" }).click();
  await expect(lastReply(page)).toContainText("Fixture received", { timeout: 15_000 });
  expect((await fixtureLog(request)).requests.map((entry) => entry.body.model)).toEqual([
    "fixture-401",
    "fixture-tools",
  ]);
});

test("the picker groups models by provider, searches them, and the choice persists with the session", async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByRole("button", { name: /^Model:/ }).click();
  const listbox = page.getByRole("listbox", { name: "Models" });
  await expect(listbox.getByRole("group", { name: "Offline mirror" })).toBeVisible();
  await expect(listbox.getByRole("group", { name: "Loopback fixture" })).toBeVisible();
  await expect(listbox.getByRole("option", { name: /Mirror with thinking.*reasoning/ })).toBeVisible();
  await page.getByRole("combobox", { name: "Search models" }).fill("thinking");
  await expect(listbox.getByRole("option")).toHaveCount(1);
  await page.getByRole("combobox", { name: "Search models" }).press("Enter");
  await page.getByRole("combobox", { name: "Thinking" }).selectOption("high");

  await sendMessage(page, "hi");
  await expect(lastReply(page).getByText("Thinking", { exact: true })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByLabel("Session usage")).toContainText("1 reply");

  await page.reload();
  await expect(page.getByRole("button", { name: /^Model:/ })).toHaveText(
    "Model: Mirror with thinking (offline)",
  );
  await expect(page.getByRole("combobox", { name: "Thinking" })).toHaveValue("high");
});
