import type { APIRequestContext } from "@playwright/test";
import { createModels } from "@earendil-works/pi-ai";
import { transformMessages } from "@earendil-works/pi-ai/api/transform-messages";
import { createMirrorProvider } from "../src/shared/mirror/mirror-provider.ts";
import { FAKE_OPENAI_KEY, FIXTURE_PORT, staticUrl } from "./ports.ts";
import { readStoredCalls, storedCalls } from "./stored-calls.ts";
import { expect, lastReply, openPlayground, sendMessage, test } from "./support.ts";

/** The loopback OpenAI-compatible fixture that playwright.config.ts starts as the local server. */
const FIXTURE = `http://127.0.0.1:${FIXTURE_PORT}`;

async function fixtureBodies(request: APIRequestContext): Promise<unknown[]> {
  const log = (await (await request.get(`${FIXTURE}/__requests`)).json()) as {
    requests: { body: unknown }[];
  };
  return log.requests.map((received) => received.body);
}

test("each call to a local OpenAI-compatible server keeps the very body the server received, after a reload too", async ({
  page,
  request,
}) => {
  await request.post(`${FIXTURE}/__reset`);
  await openPlayground(page);
  await page.getByRole("button", { name: /^Model:/ }).click();
  await page.getByRole("combobox", { name: "Search models" }).fill("fixture-tools");
  await page.getByRole("option", { name: /fixture-tools/ }).click();

  // A tool round trip (two calls), then a plain chat turn (a third).
  await sendMessage(page, "What time is it?");
  await expect(lastReply(page)).toContainText("The tool answered:", { timeout: 15_000 });
  await sendMessage(page, "thanks");
  await expect(lastReply(page)).toContainText("Fixture received 6 messages", { timeout: 15_000 });

  const calls = await storedCalls(page, 3);
  const received = await fixtureBodies(request);
  expect(received).toHaveLength(3);
  for (const call of calls) {
    expect(call.payload.kept, call.payload.reason).toBe("all");
    expect(call.payload.value).toEqual(received[call.seq]);
    // The key is named by the server's variable, never given: a curl of it reads the variable.
    expect(call.endpoint).toEqual({
      url: `${FIXTURE}/v1/chat/completions`,
      headers: { Authorization: "Bearer $LOCAL_OPENAI_API_KEY" },
    });
  }
  // The tool round trip is in the payloads as the server saw it: the call, then its result.
  expect(
    (calls[1]?.payload.value as { messages: { role: string }[] }).messages.map((message) => message.role),
  ).toEqual(["system", "user", "assistant", "tool"]);
  // Neither the server's key nor the call ids went anywhere they should not.
  expect(JSON.stringify(calls)).not.toContain(FAKE_OPENAI_KEY);
  for (const call of calls) expect(JSON.stringify(received)).not.toContain(call.id);

  await page.reload();
  await expect(page.getByRole("textbox", { name: "Message" })).toBeVisible();
  expect(await readStoredCalls(page)).toEqual(calls);
});

test("Mirror, after a stopped reply, answers from what a provider receives: the stopped reply dropped", async ({
  page,
}) => {
  await openPlayground(page);
  await sendMessage(page, `please quote this back: ${"lorem ipsum ".repeat(40)}`);
  await expect(page.getByRole("article", { name: "Assistant reply (streaming)" })).toContainText(
    "I received",
  );
  await page.getByRole("button", { name: "Stop" }).click();
  const stopped = lastReply(page);
  await expect(stopped).toHaveAttribute("data-stop-reason", "aborted");
  // A new prompt (not Retry, which leaves the stopped reply out of the model view itself): the stopped
  // reply is in what the stream function sends, and the provider transform drops it.
  await sendMessage(page, "short now");
  await expect(lastReply(page).locator("blockquote")).toHaveText("short now", { timeout: 30_000 });

  const [, retry] = await storedCalls(page, 2);
  if (retry?.messages.kept !== "all" || !retry.messages.value)
    throw new Error("the second call's messages were not kept");
  const sent = retry.messages.value;
  expect(sent.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);

  // pi-ai's own provider transform, with the mirror model, decides what a provider receives.
  const models = createModels({ authContext: { env: async () => undefined, fileExists: async () => false } });
  models.setProvider(createMirrorProvider());
  const model = models.getModel("mirror", retry.modelId);
  if (!model) throw new Error(`no mirror model ${retry.modelId}`);
  const received = transformMessages(sent, model);
  expect(received.length).toBe(sent.length - 1);
  await expect(lastReply(page)).toContainText(
    `I received ${received.length} messages: ${received.map((message) => message.role).join(", ")}.`,
  );
  expect(retry.payload.kept).toBe("all");
  expect(retry.payload.value).toMatchObject({ model: retry.modelId, messages: received });
});

test.describe("without a proxy", () => {
  // The page looks for a proxy at its own address once; the static server answers 404, as it should.
  test.use({ allowConsoleErrors: ["the server responded with a status of 404"] });

  test("the offline models' payloads are kept in the page, and no payload request leaves it", async ({
    page,
  }) => {
    const requested: string[] = [];
    page.on("request", (request) => requested.push(request.url()));
    await openPlayground(page, staticUrl());
    await expect(page.getByRole("button", { name: "No proxy: Mirror runs in this page" })).toBeVisible();
    await sendMessage(page, "hello");
    await expect(lastReply(page)).toContainText("I received 2 messages: system, user.", { timeout: 15_000 });
    const [call] = await storedCalls(page, 1);
    if (call?.messages.kept !== "all") throw new Error("the call's messages were not kept");
    expect(call.payload).toMatchObject({
      kept: "all",
      value: { model: call.modelId, messages: call.messages.value, options: {} },
    });
    expect(call.endpoint).toBeUndefined();
    expect(requested.some((url) => url.includes("/api/calls/"))).toBe(false);
  });
});
