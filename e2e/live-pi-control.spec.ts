import type { Page } from "@playwright/test";
import { startFixtureServer, type Fixture } from "./fixtures/openai-fixture-server.mjs";
import { PiProcess, piWorld, type PiWorld } from "./fixtures/pi-process.ts";
import { startPlayground, type PlaygroundServer } from "./fixtures/playground-server.ts";
import { LATE_PLAYGROUND_PORT, LIVE_TOKEN, PI_FIXTURE_PORT } from "./ports.ts";
import { expect, expectAccessible, openPlayground, test } from "./support.ts";

/**
 * The hand on a live pi: a real pi coding agent (pinned CLI, Node 22 from the registry, offline against a
 * loopback fixture) started with PI_PLAYGROUND_CONTROL=1, driven from the page once control is switched on.
 */

let fixture: Fixture;
let world: PiWorld;
let playground: PlaygroundServer;

test.beforeAll(async () => {
  fixture = await startFixtureServer(PI_FIXTURE_PORT);
});

test.afterAll(async () => {
  await fixture.close();
});

test.beforeEach(async () => {
  fixture.requests.length = 0;
  world = piWorld(fixture.port);
  playground = await startPlayground(LATE_PLAYGROUND_PORT, { PI_PLAYGROUND_TOKEN: LIVE_TOKEN });
});

test.afterEach(async ({ page }) => {
  await page.goto("about:blank");
  await playground.stop();
  world.remove();
});

type Entry = {
  type: string;
  customType?: string;
  content?: unknown;
  message?: { role: string; content: unknown; isError?: boolean; stopReason?: string };
};

/** Prompt pi and return once it has settled; what the page must do meanwhile is `meanwhile`. */
async function promptWhile(pi: PiProcess, message: string, meanwhile: () => Promise<void>): Promise<void> {
  const settled = pi.waitFor((record) => record.type === "agent_settled", 60_000);
  await pi.command({ type: "prompt", message });
  await meanwhile();
  await settled;
}

const livePanel = (page: Page) => page.getByRole("region", { name: "Live pi session" });

test("control of a live pi from the page: a follow-up injected, a tool call approved and another rejected, a paused call sent after Continue and not after Cancel or Abort", async ({
  page,
}) => {
  test.setTimeout(180_000);
  await openPlayground(page, playground.url);
  const pi = new PiProcess({
    world,
    env: {
      PI_PLAYGROUND_URL: playground.url,
      PI_PLAYGROUND_TOKEN: LIVE_TOKEN,
      PI_PLAYGROUND_CONTROL: "1",
    },
  });
  try {
    await pi.prompt("hello");
    await page
      .getByRole("list", { name: "Session list" })
      .getByRole("button", { name: /^live\s*pi · project · hello/ })
      .click();
    const panel = livePanel(page);
    const control = panel.getByRole("switch", { name: "Control this pi" });
    await expect(control).not.toBeChecked();
    // Nothing of control shows before it is switched on.
    await expect(panel.getByRole("form", { name: "Inject into pi" })).toHaveCount(0);
    // By keyboard, as every control here works.
    let heard = pi.stderr.length;
    await control.focus();
    await page.keyboard.press("Space");
    await expect(control).toBeChecked();
    // pi says so at its terminal once it has the state: from then on the page's choices apply to it.
    await pi.said("The playground controls this pi: it can inject messages and abort runs", heard);
    await expectAccessible(page, "live pi under control");

    // A notification injected as a follow-up reaches pi's session as a custom message of that type.
    const inject = panel.getByRole("form", { name: "Inject into pi" });
    await expect(inject).toBeHidden();
    await panel.getByRole("button", { name: "Inject a message" }).click();
    await inject.getByLabel("Custom type").fill("notification");
    await inject.getByLabel("Deliver as").selectOption({ label: "Follow-up" });
    await inject.getByLabel("Content").fill("The deploy finished.");
    const settledAfterInjection = pi.waitFor((record) => record.type === "agent_settled", 60_000);
    await inject.getByRole("button", { name: "Send to pi" }).click();
    await expect(inject.getByRole("status")).toContainText("Sent to pi as follow-up");
    await settledAfterInjection;
    const injected = ((await pi.entries()) as Entry[]).filter((entry) => entry.type === "custom_message");
    expect(injected).toHaveLength(1);
    expect(injected[0]?.customType).toBe("notification");
    expect(injected[0]?.content).toBe("The deploy finished.");

    // Tool calls wait for the page: one approved runs, one rejected reaches the model as a rejection.
    heard = pi.stderr.length;
    await panel.getByRole("checkbox", { name: "Ask before each tool call" }).check();
    await expect(panel).toContainText("then it blocks the tool call");
    await pi.said("each tool call waits for its approval.", heard);
    await promptWhile(pi, "please read notes.txt", async () => {
      const ask = panel.getByRole("article", { name: "pi asks to run read" });
      await expect(ask).toContainText("notes.txt");
      await expectAccessible(page, "live pi asks to run a tool");
      await expect(ask).toContainText("then it blocks the tool call");
      await ask.getByRole("button", { name: "Approve" }).focus();
      await page.keyboard.press("Enter");
      await expect(ask).toHaveCount(0);
    });
    let entries = (await pi.entries()) as Entry[];
    const results = () => entries.filter((entry) => entry.message?.role === "toolResult");
    expect(results()).toHaveLength(1);
    expect(results()[0]?.message?.isError).toBe(false);
    expect(JSON.stringify(results()[0]?.message?.content)).toContain("The build is green.");

    const marker = `${world.cwd}/ran.txt`;
    await promptWhile(pi, `please run touch ${marker}`, async () => {
      const ask = panel.getByRole("article", { name: "pi asks to run bash" });
      await expect(ask).toContainText("touch");
      await ask.getByLabel("Reason, if rejected").fill("not on a Friday");
      await ask.getByRole("button", { name: "Reject" }).click();
      await expect(ask).toHaveCount(0);
    });
    entries = (await pi.entries()) as Entry[];
    expect(results()).toHaveLength(2);
    expect(results()[1]?.message?.isError).toBe(true);
    // What the model read next: the rejection, with the reason given in the page.
    const toolMessages = (
      fixture.requests.at(-1)?.body as { messages: { role: string; content: unknown }[] }
    ).messages.filter((message) => message.role === "tool");
    expect(JSON.stringify(toolMessages.at(-1)?.content)).toContain(
      "Rejected in the playground: not on a Friday",
    );
    const { existsSync } = await import("node:fs");
    expect(existsSync(marker)).toBe(false);

    // Model calls pause: the exact request waits, goes out after Continue, and not after Cancel.
    await panel.getByRole("checkbox", { name: "Ask before each tool call" }).uncheck();
    heard = pi.stderr.length;
    await panel.getByRole("checkbox", { name: "Pause before each model call" }).check();
    // The prompt below reaches pi by another road than the page's choice: it waits until pi has the choice.
    await pi.said("abort runs; each model call waits for it to continue.", heard);
    const before = fixture.requests.length;
    let shown: unknown;
    await promptWhile(pi, "continue this one", async () => {
      const ask = panel.getByRole("article", { name: "pi's model call waits" });
      shown = JSON.parse((await ask.getByLabel("Waiting request").textContent()) ?? "null");
      // Held: the provider has not been asked yet.
      expect(fixture.requests.length).toBe(before);
      await ask.getByRole("button", { name: "Continue" }).click();
    });
    expect(fixture.requests.length).toBe(before + 1);
    expect(fixture.requests.at(-1)?.body).toEqual(shown);

    await promptWhile(pi, "cancel this one", async () => {
      const ask = panel.getByRole("article", { name: "pi's model call waits" });
      await expect(ask.getByLabel("Waiting request")).toContainText("cancel this one");
      await ask.getByRole("button", { name: "Cancel" }).click();
    });
    expect(fixture.requests.length).toBe(before + 1);
    entries = (await pi.entries()) as Entry[];
    expect(entries.at(-1)?.message?.stopReason).toBe("aborted");

    // Abort the run: the call it waits on is given up with it and never goes out.
    await promptWhile(pi, "abort this one", async () => {
      const ask = panel.getByRole("article", { name: "pi's model call waits" });
      await expect(ask.getByLabel("Waiting request")).toContainText("abort this one");
      await panel.getByRole("button", { name: "Abort the run" }).click();
      await expect(ask).toHaveCount(0);
    });
    expect(fixture.requests.length).toBe(before + 1);
    entries = (await pi.entries()) as Entry[];
    expect(entries.at(-1)?.message?.stopReason).toBe("aborted");
    expect(pi.stderr).toContain("the run was aborted in the playground");

    // Control off: the page offers nothing more, and pi runs without asking.
    heard = pi.stderr.length;
    await control.uncheck();
    await expect(panel.getByRole("form", { name: "Inject into pi" })).toHaveCount(0);
    await pi.said("The playground no longer controls this pi.", heard);
    await pi.prompt("free again");
    expect(fixture.requests.length).toBe(before + 2);
  } finally {
    await pi.stop();
  }
});
