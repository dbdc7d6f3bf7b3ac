import type { APIRequestContext } from "@playwright/test";
import { createModels, type Message } from "@earendil-works/pi-ai";
import { transformMessages } from "@earendil-works/pi-ai/api/transform-messages";
import { createMirrorProvider } from "../src/shared/mirror/mirror-provider.ts";
import { FAKE_OPENAI_KEY, FIXTURE_PORT, staticUrl } from "./ports.ts";
import { readStoredCalls, storedCalls, type StoredCall } from "./stored-calls.ts";
import { expect, factRow, lastReply, openPlayground, rawPayload, sendMessage, test } from "./support.ts";

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
    // The server's key for the local model is named, never given.
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

test("Mirror, after a stopped reply, answers from what a provider receives: left out on Retry, dropped by the transform otherwise", async ({
  page,
}) => {
  await openPlayground(page);
  const pace = page.getByRole("combobox", { name: "Mirror speed" });
  const usualPace = await pace.inputValue();
  const stopReply = async () => {
    // Paced slowly while it is stopped: on a busy machine a reply at the usual pace can end before Stop.
    await pace.selectOption("5");
    await sendMessage(page, `please quote this back: ${"lorem ipsum ".repeat(40)}`);
    await expect(page.getByRole("article", { name: "Assistant reply (streaming)" })).toContainText(
      "I received",
    );
    await page.getByRole("button", { name: "Stop" }).click();
    await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "aborted");
    await pace.selectOption(usualPace);
  };
  // pi-ai's own provider transform, with the mirror model, decides what a provider receives.
  const models = createModels({ authContext: { env: async () => undefined, fileExists: async () => false } });
  models.setProvider(createMirrorProvider());
  const mirrorReceives = async (call: StoredCall | undefined, sentRoles: string[]) => {
    if (call?.messages.kept !== "all" || !call.messages.value)
      throw new Error("the call's messages were not kept");
    const sent = call.messages.value;
    expect(sent.map((message) => message.role)).toEqual(sentRoles);
    const model = models.getModel("mirror", call.modelId);
    if (!model) throw new Error(`no mirror model ${call.modelId}`);
    const received = transformMessages(sent, model);
    await expect(lastReply(page)).toContainText(
      `I received ${received.length} messages: ${received.map((message) => message.role).join(", ")}.`,
    );
    expect(call.payload.kept).toBe("all");
    // The payload is kept as JSON: compare it with the transform's output as JSON too.
    expect(call.payload.value).toMatchObject({
      model: call.modelId,
      messages: JSON.parse(JSON.stringify(received)) as unknown,
    });
    return received;
  };

  // Retry, as pi does: the stopped reply stays among the facts, and a context edit leaves it out.
  await stopReply();
  // Before retrying: the preview of the next call, which pi-ai's transform builds without the stopped reply.
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Calls" }).click();
  await page.getByRole("button", { name: "Preview next call" }).click();
  const preview = page.getByRole("article", { name: "Next call preview" });
  await expect(preview).toContainText("nothing reached the provider", { timeout: 15_000 });
  const previewed = JSON.parse(await rawPayload(preview)) as {
    messages: Message[];
  };
  await lastReply(page).getByRole("button", { name: "Retry" }).click();
  await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop", { timeout: 30_000 });
  const [, retry] = await storedCalls(page, 2);
  const retried = await mirrorReceives(retry, ["system", "user"]);
  expect(retried).toHaveLength(2);
  // The preview showed what the provider then received.
  expect(previewed.messages).toEqual(JSON.parse(JSON.stringify(retried)));

  // A new prompt after a stop: the stopped reply is in the model view, and the provider's transform drops it.
  await stopReply();
  await sendMessage(page, "go on");
  await expect(lastReply(page)).toHaveAttribute("data-stop-reason", "stop", { timeout: 30_000 });
  const calls = await storedCalls(page, 4);
  const received = await mirrorReceives(calls[3], [
    "system",
    "user",
    "assistant",
    "user",
    "assistant",
    "user",
  ]);
  expect(received.map((message) => message.role)).toEqual(["system", "user", "assistant", "user", "user"]);

  // The inspector says the same: the retried attempt is left out of the model view, and the stopped reply
  // that is in it is dropped by the provider's transform, in the facts column and in the provider view.
  await page.getByRole("tab", { name: "Facts and model view" }).click();
  await expect(factRow(page, 3, "assistant", "left out: failed attempt")).toBeVisible();
  await expect(factRow(page, 6, "assistant", "dropped: aborted")).toBeVisible();
  const modelView = page.getByRole("region", { name: "Model view" });
  await modelView.getByRole("button", { name: "Provider" }).click();
  await expect(modelView.getByRole("heading", { name: "Provider view" })).toBeVisible();
  await expect(modelView).toContainText("1 dropped");
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
