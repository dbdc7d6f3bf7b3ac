#!/usr/bin/env node
// The README's screenshots: builds the app, serves it on SCREENSHOT_PORT (default 4180), and takes the
// same scene on a desktop in light and dark and on a phone, and a paused model call, into docs/.
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
  ];
  for (const shot of shots) {
    const context = await browser.newContext({
      viewport: shot.viewport,
      colorScheme: shot.colorScheme,
      deviceScaleFactor: shot.phone ? 2 : 1,
    });
    const page = await context.newPage();
    if (shot.pause) await pauseScene(page);
    else await scene(page, { phone: shot.phone === true });
    await page.screenshot({ path: shot.file });
    console.log(`wrote ${shot.file}`);
    await context.close();
  }
} finally {
  await browser.close();
  process.kill(-server.pid);
}
