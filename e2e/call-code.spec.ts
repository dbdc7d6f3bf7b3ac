import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "@playwright/test";
import { PROXY_PORT, PROXY_TOKEN, staticUrl } from "./ports.ts";
import { expect, lastReply, openPlayground, sendMessage, test } from "./support.ts";

/**
 * "As code": the curl the calls view writes for a call is a command that works as written, against the
 * proxy the page uses: the page's own server (its token fetched by the command itself) or a proxy on
 * another origin (its token named, never included).
 */

const run = promisify(execFile);

async function curlOfCall(page: Page, call: number): Promise<string> {
  await page.getByRole("button", { name: "Inspector", exact: true }).click();
  await page.getByRole("tab", { name: "Calls" }).click();
  await page
    .getByRole("listbox", { name: "Recorded calls" })
    .getByRole("option", { name: new RegExp(`^Call #${call} `) })
    .click();
  const detail = page.getByRole("article", { name: `Call ${call}` });
  await detail.getByRole("tab", { name: "As code" }).click();
  return (await detail.getByRole("region", { name: "curl" }).locator("pre").textContent()) ?? "";
}

/** What the command prints, run by bash as someone who pasted it would. */
async function runPasted(command: string, env: Record<string, string> = {}): Promise<string> {
  const { stdout } = await run("bash", ["-c", command], { env: { ...process.env, ...env }, timeout: 30_000 });
  return stdout;
}

test("the curl of an offline call runs as written against the page's own server, fetching its token itself", async ({
  page,
  baseURL,
}) => {
  await openPlayground(page);
  await sendMessage(page, "repeat after me");
  await expect(lastReply(page).locator("blockquote")).toHaveText("repeat after me", { timeout: 15_000 });
  const curl = await curlOfCall(page, 1);
  expect(curl).toContain(`${baseURL}/api/session`);
  expect(curl).not.toContain("printed at start");
  const streamed = await runPasted(curl);
  expect(streamed).toContain('"type":"done"');
  const text = streamed
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)) as { type: string; delta?: string })
    .map((event) => (event.type === "text_delta" ? event.delta : ""))
    .join("");
  expect(text).toContain("> repeat after me");
});

test.describe("behind a proxy on another origin", () => {
  // The static server answers the page's own look for a proxy with 404.
  test.use({ allowConsoleErrors: ["the server responded with a status of 404"] });

  test("the curl names that proxy, not the page's origin, and runs with its token", async ({ page }) => {
    const proxy = `http://127.0.0.1:${PROXY_PORT}`;
    await openPlayground(page, staticUrl());
    await page.getByRole("button", { name: /^(Proxy:|No proxy)/ }).click();
    const dialog = page.getByRole("dialog", { name: "Proxy" });
    await dialog.getByLabel("Proxy address").fill(proxy);
    await dialog.getByLabel("Proxy token").fill(PROXY_TOKEN);
    await dialog.getByRole("button", { name: "Connect" }).click();
    await expect(page.getByRole("button", { name: `Proxy: 127.0.0.1:${PROXY_PORT}` })).toBeVisible();
    await sendMessage(page, "through the other origin");
    await expect(lastReply(page).locator("blockquote")).toHaveText("through the other origin", {
      timeout: 15_000,
    });
    const curl = await curlOfCall(page, 1);
    expect(curl).toContain(`'${proxy}/api/stream'`);
    expect(curl).not.toContain(new URL(staticUrl()).origin);
    expect(curl).toContain("PROXY_TOKEN");
    expect(curl).not.toContain(PROXY_TOKEN);
    expect(await runPasted(curl, { PI_PLAYGROUND_TOKEN: PROXY_TOKEN })).toContain('"type":"done"');
  });
});
