import { storedCalls } from "./stored-calls.ts";
import { expect, expectAccessible, lastReply, openPlayground, sendMessage, test } from "./support.ts";

test('a tool defined in the page with "ask me": Mirror calls it, the run waits, the typed result is in the next call; an invalid schema is refused with the reason', async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Tools" }).click();
  const dialog = page.getByRole("dialog", { name: "Tools" });
  // The demo tools are definitions like any other.
  await expect(dialog.getByRole("list", { name: "Tools of this session" }).getByRole("listitem")).toHaveCount(
    3,
  );
  await expect(dialog).toContainText("runs in the browser (calculate)");
  await dialog.getByRole("button", { name: "Add a tool" }).click();
  const editor = dialog.getByRole("form", { name: "Tool definition" });
  await editor.getByRole("textbox", { name: "Name" }).fill("ask_human");
  await editor.getByRole("textbox", { name: "Description (what the model reads)" }).fill("Asks the person.");
  const parameters = editor.getByRole("textbox", { name: "Parameters (JSON Schema of an object)" });
  await parameters.fill('{"type": "object", "properties": {"question": {"type": "strnig"}}}');
  await editor.getByRole("radio", { name: /^Ask me/ }).check();
  await editor.getByRole("button", { name: "Save tool" }).click();
  await expect(editor).toContainText(
    '"properties.question.type": "strnig" is not a JSON Schema type; use one of array, boolean, integer, null, number, object, string',
  );
  await expect(parameters).toHaveAttribute("aria-invalid", "true");
  await expect(parameters).toBeFocused();
  await expectAccessible(page, "tool editor with a refused schema");
  // Nothing was added while the schema was refused.
  await expect(dialog.getByRole("list", { name: "Tools of this session" }).getByRole("listitem")).toHaveCount(
    3,
  );
  await parameters.fill('{"type": "object", "properties": {"question": {"type": "string"}}}');
  await editor.getByRole("button", { name: "Save tool" }).click();
  await expect(editor).toHaveCount(0);
  await expect(dialog.getByRole("list", { name: "Tools of this session" }).getByRole("listitem")).toHaveCount(
    4,
  );
  await expect(dialog).toContainText("ask me");
  await expectAccessible(page, "tools dialog");
  await dialog.getByRole("button", { name: "Close" }).click();

  await sendMessage(page, 'call ask_human with {"question": "Which color?"}');
  const call = page.getByRole("region", { name: "Tool call ask_human" });
  await expect(call).toContainText("waiting for you");
  // The run waits: Stop is offered, Send is not.
  await expect(page.getByRole("button", { name: "Stop" })).toBeVisible();
  await expectAccessible(page, "a tool call waiting for its typed result");
  await call.getByRole("textbox", { name: /type it/ }).fill('{"color": "blue"}');
  await call.getByRole("button", { name: "Send result" }).click();
  await expect(lastReply(page)).toContainText('ask_human returned: {"color": "blue"}');
  await expect(call).toContainText("done");

  // The next call carried the typed result, as the tool's result, to the model.
  const calls = await storedCalls(page, 2);
  const sent = calls[1]?.messages.value ?? [];
  expect(sent.at(-1)).toMatchObject({
    role: "toolResult",
    toolName: "ask_human",
    content: [{ type: "text", text: '{"color": "blue"}' }],
    isError: false,
  });
  // The tool was declared to the model as defined, from the first call on: pi declared it added.
  const declared = calls[0]?.messages.value?.filter((message) => message.role === "system").at(-1);
  expect(declared).toMatchObject({
    toolsAdded: [
      {
        name: "ask_human",
        description: "Asks the person.",
        parameters: { type: "object", properties: { question: { type: "string" } } },
      },
    ],
  });

  await page.reload();
  await page.getByRole("button", { name: "Tools" }).click();
  await expect(page.getByRole("dialog", { name: "Tools" })).toContainText("ask_human");
});

test("hostile tool names are refused, a tool switched off is not offered, and the demo tools can be edited like any other", async ({
  page,
}) => {
  await openPlayground(page);
  await page.getByRole("button", { name: "Tools" }).click();
  const dialog = page.getByRole("dialog", { name: "Tools" });
  await dialog.getByRole("button", { name: "Add a tool" }).click();
  const editor = dialog.getByRole("form", { name: "Tool definition" });
  for (const [name, problem] of <[string, string][]>[
    ["<img src=x onerror=alert(1)>", "cannot be a tool name"],
    ["__proto__", "a name every JavaScript object has"],
    ["calculate", 'already has a tool named "calculate"'],
  ]) {
    await editor.getByRole("textbox", { name: "Name" }).fill(name);
    await editor.getByRole("button", { name: "Save tool" }).click();
    await expect(editor).toContainText(problem);
  }
  await editor.getByRole("button", { name: "Cancel" }).click();
  await dialog.getByRole("checkbox", { name: "calculate offered to the model" }).uncheck();
  await dialog.getByRole("button", { name: "Close" }).click();

  await sendMessage(page, "what is 2 + 3?");
  // Mirror is not offered calculate any more: it quotes the question instead of calling the tool.
  await expect(lastReply(page)).toContainText("The last user message was:");
  const [first] = await storedCalls(page, 1);
  const declarations = first?.messages.value?.filter((message) => message.role === "system") ?? [];
  expect(declarations.at(-1)).toMatchObject({ toolsRemoved: [{ name: "calculate" }] });
});
