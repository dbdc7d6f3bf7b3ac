#!/usr/bin/env node
// The README's screenshots: builds the app, serves it on SCREENSHOT_PORT (default 4180), and takes the
// same scene on a desktop in light and dark and on a phone, a paused model call, and one call's layers in
// the calls view, into docs/.
import { spawn, spawnSync } from "node:child_process";
import { chromium } from "@playwright/test";
import { CHROMIUM_ARGS, findChromium } from "./chromium-path.mjs";

const port = Number(process.env.SCREENSHOT_PORT) || 4180;
const base = `http://127.0.0.1:${port}`;

if (spawnSync("npx", ["vite", "build"], { stdio: "inherit" }).status !== 0) process.exit(1);
const server = spawn("npx", ["vite", "preview", "--port", String(port), "--strictPort"], {
  env: { ...process.env, HOST: "127.0.0.1" },
  stdio: "ignore",
  detached: true,
});

async function serverReady() {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(`${base}/api/session`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the preview server did not start on port ${port}`);
}

/** A conversation that shows the playground's ideas: a tool call, a notification, a pending approval. */
async function scene(page, { phone }) {
  await page.goto(base);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.waitFor();
  const send = async (text) => {
    await composer.fill(text);
    await page.getByRole("button", { name: "Send" }).click();
  };
  await send("What is 12 * (3 + 4)?");
  await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 20_000 });
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await dialog.getByLabel("Text", { exact: true }).fill("Deploy finished: version 2.4.0 is live");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await send("Save a note: ship the release notes on Friday");
  await page.getByRole("button", { name: "Approve" }).waitFor({ timeout: 20_000 });
  if (!phone) {
    await page.getByRole("button", { name: "Inspector", exact: true }).click();
    await page
      .getByRole("listbox", { name: "Facts" })
      .getByRole("option", { name: /^Fact 9:/ })
      .click();
  }
  // No hover or focus ring in the picture.
  await composer.focus();
  await composer.blur();
  await page.mouse.move(2, page.viewportSize().height / 2);
  // Let the last layout and scroll settle before the picture.
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/** A model call held before it is sent, with a steer that joins it and a follow-up that waits. */
async function pauseScene(page) {
  await page.goto(base);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.waitFor();
  await page.getByRole("switch", { name: "Pause before each model call" }).check();
  await page.getByRole("combobox", { name: "Mirror speed" }).selectOption("15");
  await composer.fill("What is 12 * (3 + 4)?");
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("button", { name: "Continue" }).click();
  // The tool ran; the call that brings its result to the model waits.
  await page.getByRole("region", { name: "Paused before model call 2" }).waitFor({ timeout: 20_000 });
  await composer.fill("Also say the result in words");
  await page.getByRole("button", { name: "Steer", exact: true }).click();
  await composer.fill("Then suggest a rhyme about it");
  await page.getByRole("button", { name: "Follow-up", exact: true }).click();
  await composer.blur();
  await page.mouse.move(2, page.viewportSize().height / 2);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/**
 * One call's three layers side by side: a reply is stopped, then a new question is asked, so the model view
 * as sent still holds the stopped reply, which pi-ai's transform drops from the provider view and payload.
 */
async function callsScene(page) {
  await page.goto(base);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.waitFor();
  const send = page.getByRole("button", { name: "Send" });
  await composer.fill(`Quote this back to me, please: ${"a long story about the sea ".repeat(30)}`);
  await send.click();
  await page.getByRole("article", { name: "Assistant reply (streaming)" }).getByText("I received").waitFor();
  await page.getByRole("button", { name: "Stop" }).click();
  await send.waitFor();
  await composer.fill("Something shorter then: what is 12 * (3 + 4)?");
  await send.click();
  await page.getByText("returned: 12 * (3 + 4) = 84").waitFor({ timeout: 20_000 });
  // The sessions list aside, so the inspector has room for three columns.
  await page.getByRole("button", { name: "Sessions" }).click();
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Calls" }).click();
  await page.getByRole("option", { name: /^Call #2 / }).click();
  await page.getByRole("tab", { name: "All three side by side" }).click();
  await page.getByRole("region", { name: "Provider payload" }).getByRole("tree").waitFor();
  await composer.focus();
  await composer.blur();
  await page.mouse.move(2, page.viewportSize().height / 2);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

/** A session file whose tool returned a long log (about 10,000 tokens): what the anatomy is for. */
function workerLogSession() {
  const log = Array.from(
    { length: 800 },
    (_, line) => `2026-01-01T10:00:${line % 60}Z worker ${line}: ok`,
  ).join("\n");
  const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0 };
  const reply = (content, stopReason, timestamp) => ({
    role: "assistant",
    content,
    api: "mirror",
    provider: "mirror",
    model: "mirror-instant",
    usage: { ...usage, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason,
    timestamp,
  });
  const messages = [
    { role: "user", content: [{ type: "text", text: "Read the worker log." }], timestamp: 2 },
    reply([{ type: "toolCall", id: "read_1", name: "read_log", arguments: {} }], "toolUse", 3),
    {
      role: "toolResult",
      toolCallId: "read_1",
      toolName: "read_log",
      content: [{ type: "text", text: log }],
      isError: false,
      timestamp: 4,
    },
    reply([{ type: "text", text: "Every worker reported ok." }], "stop", 5),
  ];
  const header = {
    type: "session",
    format: "pi-playground-session",
    version: 1,
    exportedAt: new Date(6).toISOString(),
    title: "Worker log",
    settings: { model: { provider: "mirror", id: "mirror-instant" } },
  };
  return [header, ...messages.map((message) => ({ type: "message", message }))]
    .map((line) => JSON.stringify(line))
    .join("\n");
}

/**
 * The anatomy of a session with a large tool result, a tool round trip, a notification the model is
 * shown and a switch to the thinking model: its composition with the tool results' facts listed, and
 * its timeline with the calls' table.
 */
async function anatomyScene(page, { phone }) {
  await page.goto(base);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.waitFor();
  if (phone) await page.getByRole("button", { name: "Sessions" }).click();
  await page.getByLabel("Import a session file").setInputFiles({
    name: "worker-log.jsonl",
    mimeType: "application/json",
    buffer: Buffer.from(workerLogSession()),
  });
  if (phone) await page.keyboard.press("Escape");
  await page.getByText("Every worker reported ok.").waitFor();
  const send = async (text) => {
    await composer.fill(text);
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("button", { name: "Send" }).waitFor({ timeout: 30_000 });
  };
  const showInspector = async () => {
    if (phone) await page.getByRole("tab", { name: "Inspector" }).click();
    else if ((await page.getByRole("region", { name: "Inspector" }).count()) === 0)
      await page.getByRole("button", { name: "Inspector", exact: true }).click();
  };
  await send("Which worker was first?");
  await send("compute 12 * (3 + 4)");
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await dialog.getByLabel("Text", { exact: true }).fill("Deploy finished: version 2.4.0 is live");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await send("And the last worker?");
  await showInspector();
  await page.getByRole("combobox", { name: "Notifications" }).selectOption("userText");
  if (phone) await page.getByRole("tab", { name: "Chat" }).click();
  await send("Summarize the log in one word.");
  await page.getByRole("button", { name: /^Model:/ }).click();
  await page.getByRole("combobox", { name: "Search models" }).fill("thinking");
  await page.getByRole("option", { name: /Mirror with thinking/ }).click();
  await send("What time is it?");
  await showInspector();
  await page.getByRole("tab", { name: "Anatomy" }).click();
  const anatomy = page.getByRole("region", { name: "Anatomy" });
  await anatomy.getByRole("table", { name: "Tokens by category" }).waitFor();
  await anatomy.getByRole("button", { name: "tool results" }).click();
  await page.mouse.move(2, page.viewportSize().height / 2);
  return anatomy;
}

/**
 * Three variants over one conversation: the second shows notifications to its model as user text, the
 * third has another system prompt; one prompt sent to all three, compared turn by turn.
 */
async function variantsScene(page, { phone }) {
  await page.goto(base);
  const composer = page.getByRole("textbox", { name: "Message" });
  await composer.waitFor();
  await composer.fill("The deploy is running; tell me when it is done.");
  await page.getByRole("button", { name: "Send" }).click();
  await page.getByRole("article", { name: "Assistant reply", exact: true }).waitFor({ timeout: 20_000 });
  await page.getByRole("button", { name: "Inject", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Inject message" });
  await dialog.getByLabel("Text", { exact: true }).fill("Deploy finished: version 2.4.0 is live");
  await dialog.getByRole("button", { name: "Inject: append now" }).click();
  await dialog.waitFor({ state: "hidden" });
  // On a phone the inspector is a tab of its own.
  await page.getByRole(phone ? "tab" : "button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Variants" }).click();
  const view = page.getByRole("region", { name: "Variants" });
  await view.getByRole("form", { name: "Prompt every variant" }).waitFor();
  if (!phone) await page.getByRole("button", { name: /^Maximise/ }).click();
  await view
    .getByRole("group", { name: "Variant B" })
    .getByRole("combobox", { name: "Notifications" })
    .selectOption("userText");
  await view
    .getByRole("group", { name: "Variant C" })
    .getByRole("textbox", { name: "System prompt" })
    .fill("You are a release assistant. Answer in one short paragraph.");
  await view.getByRole("textbox", { name: "Prompt for every variant" }).fill("Is the deploy done?");
  await view.getByRole("button", { name: "Send to every variant" }).click();
  await view.getByText(/^Variant C · done$/).waitFor({ timeout: 30_000 });
  await view.getByText(/^Variant A · done$/).waitFor({ timeout: 30_000 });
  await view.getByText(/^Variant B · done$/).waitFor({ timeout: 30_000 });
  await view.getByRole("table", { name: "Turn 1 figures" }).getByText("Payload").waitFor();
  // On a phone the variants stack: the picture shows the turn compared.
  if (phone) await view.getByRole("region", { name: "Turn 1" }).evaluate((turn) => turn.scrollIntoView());
  await page.mouse.move(2, page.viewportSize().height / 2);
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

const browser = await chromium.launch({ executablePath: await findChromium(), args: CHROMIUM_ARGS });
try {
  await serverReady();
  const shots = [
    { file: "docs/screenshot.png", viewport: { width: 1440, height: 900 }, colorScheme: "light" },
    { file: "docs/screenshot-dark.png", viewport: { width: 1440, height: 900 }, colorScheme: "dark" },
    {
      file: "docs/screenshot-phone.png",
      viewport: { width: 390, height: 844 },
      colorScheme: "light",
      phone: true,
    },
    {
      file: "docs/screenshot-pause.png",
      viewport: { width: 1440, height: 900 },
      colorScheme: "light",
      pause: true,
    },
    {
      file: "docs/screenshot-calls.png",
      viewport: { width: 1440, height: 900 },
      colorScheme: "light",
      scene: callsScene,
    },
    {
      file: "docs/variants.png",
      viewport: { width: 1440, height: 900 },
      colorScheme: "light",
      scene: variantsScene,
    },
    {
      file: "docs/variants-dark.png",
      viewport: { width: 1440, height: 900 },
      colorScheme: "dark",
      scene: variantsScene,
    },
    {
      file: "docs/variants-phone.png",
      viewport: { width: 390, height: 844 },
      colorScheme: "light",
      phone: true,
      scene: variantsScene,
    },
  ];
  // `npm run screenshots -- calls` retakes only the pictures whose file name contains "calls".
  const only = process.argv[2];
  for (const shot of shots.filter((candidate) => !only || candidate.file.includes(only))) {
    const context = await browser.newContext({
      viewport: shot.viewport,
      colorScheme: shot.colorScheme,
      deviceScaleFactor: shot.phone ? 2 : 1,
    });
    const page = await context.newPage();
    if (shot.pause) await pauseScene(page);
    else await (shot.scene ?? scene)(page, { phone: shot.phone === true });
    await page.screenshot({ path: shot.file });
    console.log(`wrote ${shot.file}`);
    await context.close();
  }
  const anatomyShots = [
    { file: "docs/anatomy-composition.png", colorScheme: "light", phone: false, part: "composition" },
    { file: "docs/anatomy-timeline-dark.png", colorScheme: "dark", phone: false, part: "timeline" },
    { file: "docs/anatomy-phone.png", colorScheme: "light", phone: true, part: "composition" },
  ];
  for (const shot of anatomyShots.filter((candidate) => !only || candidate.file.includes(only))) {
    const context = await browser.newContext({
      viewport: shot.phone ? { width: 390, height: 844 } : { width: 1440, height: 900 },
      colorScheme: shot.colorScheme,
      deviceScaleFactor: shot.phone ? 2 : 1,
    });
    const page = await context.newPage();
    const anatomy = await anatomyScene(page, { phone: shot.phone });
    if (shot.part === "timeline") {
      await anatomy
        .getByRole("heading", { name: "Timeline" })
        .evaluate((heading) => heading.scrollIntoView());
      await anatomy.getByRole("button", { name: "Show as a table" }).click();
      await anatomy
        .getByRole("heading", { name: "Timeline" })
        .evaluate((heading) => heading.scrollIntoView());
    }
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await (shot.phone ? page : anatomy).screenshot({ path: shot.file });
    console.log(`wrote ${shot.file}`);
    await context.close();
  }
} finally {
  await browser.close();
  process.kill(-server.pid);
}
