import type { APIRequestContext } from "@playwright/test";
import { FIXTURE_PORT } from "./ports.ts";
import { storedCalls } from "./stored-calls.ts";
import {
  expect,
  expectAccessible,
  lastReply,
  openPlayground,
  pickModel,
  sendMessage,
  test,
} from "./support.ts";

/** The loopback OpenAI-compatible fixture that playwright.config.ts starts as the local server. */
const FIXTURE = `http://127.0.0.1:${FIXTURE_PORT}`;

async function fixtureBodies(request: APIRequestContext): Promise<Record<string, unknown>[]> {
  const log = (await (await request.get(`${FIXTURE}/__requests`)).json()) as {
    requests: { body: Record<string, unknown> }[];
  };
  return log.requests.map((received) => received.body);
}

async function setField(page: import("@playwright/test").Page, label: string, value: string): Promise<void> {
  const field = page.getByRole("dialog", { name: "Sampling" }).getByRole("textbox", { name: label });
  await field.fill(value);
  await field.press("Tab");
}

test("sampling set for the session reaches every call, is recorded and shown with it, and survives a reload", async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByRole("button", { name: /^Sampling:/ }).click();
  const dialog = page.getByRole("dialog", { name: "Sampling" });
  // Mirror's API takes temperature and max tokens, nothing more.
  await expect(dialog.getByRole("textbox")).toHaveCount(2);
  await setField(page, "Temperature", "7");
  await expect(dialog.getByText("Temperature must be between 0 and 2.")).toBeVisible();
  await expect(dialog.getByRole("textbox", { name: "Temperature" })).toHaveAttribute("aria-invalid", "true");
  await setField(page, "Temperature", "0.3");
  await setField(page, "Max tokens", "321");
  await expectAccessible(page, "sampling popover");
  await dialog.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("button", { name: /^Sampling:/ })).toHaveText("Sampling: T 0.3 · ≤321 tokens");

  await sendMessage(page, "hello");
  await expect(lastReply(page)).toContainText("The last user message was:");
  const [call] = await storedCalls(page, 1);
  expect(call?.options).toMatchObject({ temperature: 0.3, maxTokens: 321 });
  // Mirror's payload carries the options as a provider would receive them.
  expect((call?.payload.value as { options: unknown }).options).toMatchObject({
    temperature: 0.3,
    maxTokens: 321,
  });

  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Calls" }).click();
  await expect(page.getByRole("article", { name: "Call 1" })).toContainText(
    "Sampling: temperature 0.3 · max tokens 321",
  );

  await page.reload();
  await expect(page.getByRole("button", { name: /^Sampling:/ })).toHaveText("Sampling: T 0.3 · ≤321 tokens");
});

test("an OpenAI-compatible model takes top p and the like; the server receives exactly what was set", async ({
  page,
  request,
}) => {
  await request.post(`${FIXTURE}/__reset`);
  await openPlayground(page);
  await pickModel(page, "fixture-echo", /^fixture-echo /);
  await page.getByRole("button", { name: /^Sampling:/ }).click();
  const dialog = page.getByRole("dialog", { name: "Sampling" });
  await expect(dialog.getByRole("textbox", { name: "Top k" })).toBeVisible();
  await setField(page, "Temperature", "0");
  await setField(page, "Top p", "0.5");
  await setField(page, "Seed", "42");
  await dialog.getByRole("button", { name: "Done" }).click();

  await sendMessage(page, "sampled");
  await expect(lastReply(page)).toContainText("sampled");
  const [body] = await fixtureBodies(request);
  expect(body).toMatchObject({ temperature: 0, top_p: 0.5, seed: 42 });
  expect(body).not.toHaveProperty("top_k");

  // Back on Mirror the parameters its API does not take are not offered, and not sent.
  await page.getByRole("button", { name: /^Model:/ }).click();
  await page.getByRole("combobox", { name: "Search models" }).fill("mirror-instant");
  await page.getByRole("option", { name: /Mirror, unpaced/ }).click();
  await expect(page.getByRole("button", { name: /^Sampling:/ })).toHaveText("Sampling: T 0");
});
