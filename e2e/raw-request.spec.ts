import { readFileSync } from "node:fs";
import { expect, expectAccessible, openPlayground, rawPayload, test } from "./support.ts";

const fixture = (name: string) =>
  readFileSync(new URL(`../src/lib/sessions/raw-request/fixtures/${name}`, import.meta.url), "utf8");

test("a pasted request body becomes a session of one call: its model view, payload and anatomy; script in it stays text", async ({
  page,
}) => {
  await openPlayground(page);
  const title = await page.title();
  const sessions = page.getByRole("list", { name: "Session list" }).getByRole("listitem");
  // Counted once the list shows the first session: read before it renders, the count would be 0.
  await expect(sessions.first()).toBeVisible();
  const sessionCount = await sessions.count();

  await page.getByRole("button", { name: "Paste request…" }).click();
  const dialog = page.getByRole("dialog", { name: "Import a request body" });
  const body = dialog.getByRole("textbox", { name: "Request body (JSON)" });
  const importButton = dialog.getByRole("button", { name: "Import as a session" });

  // Not a request: said where the person is typing, and nothing can be imported.
  await body.fill('{"prompt": "hi"}');
  await expect(dialog.getByRole("alert")).toContainText(
    "This is not a request body of a shape the playground reads",
  );
  await expect(importButton).toBeDisabled();
  await body.fill('{"messages": [');
  await expect(dialog.getByRole("alert")).toContainText("The request body is not JSON");

  // Two shapes fit: the person chooses, and the preview follows.
  await body.fill('{"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}]}');
  const shapes = dialog.getByRole("group", {
    name: /could be OpenAI chat completions or Anthropic messages/,
  });
  await expect(shapes.getByRole("radio", { name: "OpenAI chat completions" })).toBeChecked();
  await shapes.getByRole("radio", { name: "Anthropic messages" }).check();
  await expect(dialog.getByRole("region", { name: "What the call will hold" })).toContainText(
    "1 message (user)",
  );
  await expectAccessible(page, "request body dialog, two shapes");

  // A real body: its messages, tools, and what is left out, before importing.
  await body.fill(fixture("anthropic-messages.json"));
  await expect(dialog.getByRole("status")).toHaveText("Read as Anthropic messages.");
  const preview = dialog.getByRole("region", { name: "What the call will hold" });
  await expect(preview).toContainText(
    "4 messages (user, assistant, toolResult, user), after a system prompt; tools: get_weather.",
  );
  await expect(preview.getByRole("list", { name: "Not mapped" }).getByRole("listitem")).toHaveText([
    /^tools\[1\]: a "web_search_20250305" part, a tool the provider runs itself/,
  ]);
  await importButton.click();
  await expect(dialog).toBeHidden();

  await expect(
    page.getByRole("button", { name: /^Request: Anthropic messages, claude-sonnet-4-5/ }),
  ).toHaveAttribute("aria-current", "true");
  await expect(sessions).toHaveCount(sessionCount + 1);
  const callsOnly = page.getByRole("region", { name: "Calls, no facts" });
  await expect(callsOnly).toContainText("This session has 1 model call and no facts.");

  // The call: request only, its model view in pi-ai's roles, the body as its payload, the note of what
  // was left out. The script-bearing text is shown as text and never runs.
  await callsOnly.getByRole("button", { name: "Open the calls" }).click();
  await page
    .getByRole("listbox", { name: "Recorded calls" })
    .getByRole("option", { name: /^Call #1 anthropic\/claude-sonnet-4-5, request only, no reply/ })
    .click();
  const call = page.getByRole("article", { name: "Call 1" });
  await expect(call).toContainText("Not mapped (kept in the payload only): tools[1]");
  await call.getByRole("tab", { name: "All three side by side" }).click();
  const sent = call.getByRole("region", { name: "Model view as sent" });
  await expect(sent.getByRole("listitem")).toHaveCount(5);
  await expect(sent).toContainText("<script>document.title='pwned'</script>");
  expect(await rawPayload(call.getByRole("region", { name: "Provider payload" }))).toContain(
    '"web_search_20250305"',
  );
  expect(await page.title()).toBe(title);
  expect(await page.locator("img[src='x']").count()).toBe(0);
  await expectAccessible(page, "a call imported from a request body");

  // Its anatomy: the composition of the request, from its messages.
  await callsOnly.getByRole("button", { name: "Open the anatomy" }).click();
  const anatomy = page.getByRole("region", { name: "Anatomy" });
  await anatomy.getByRole("combobox", { name: "Request" }).selectOption("0");
  const categories = anatomy.getByRole("table", { name: "Tokens by category" });
  await expect(categories.getByRole("rowheader", { name: "tool definitions" })).toBeVisible();
  await expect(categories.getByRole("rowheader", { name: "tool results" })).toBeVisible();
});
