import { startFixtureServer, type Fixture } from "./fixtures/openai-fixture-server.mjs";
import { connectionIds, liveState, pageToken } from "./fixtures/live-api.ts";
import { PiProcess, piWorld, type PiWorld } from "./fixtures/pi-process.ts";
import { startPlayground, type PlaygroundServer } from "./fixtures/playground-server.ts";
import { LATE_PLAYGROUND_PORT, LIVE_TOKEN, PI_FIXTURE_PORT } from "./ports.ts";
import { expect, test } from "./support.ts";

/**
 * A real pi coding agent (pinned CLI, Node 22 from the registry, offline against a loopback fixture) with
 * the playground's extension, when the playground is not there or refuses it: pi works on as it does
 * without the extension, says what is wrong once, and the playground catches up when it can.
 */

let fixture: Fixture;
const worlds: PiWorld[] = [];
let playground: PlaygroundServer | undefined;

test.beforeAll(async () => {
  fixture = await startFixtureServer(PI_FIXTURE_PORT);
});

test.afterAll(async () => {
  await fixture.close();
});

test.afterEach(async ({ page }) => {
  await page.goto("about:blank");
  await playground?.stop();
  playground = undefined;
  for (const world of worlds.splice(0)) world.remove();
});

function world(): PiWorld {
  const made = piWorld(fixture.port);
  worlds.push(made);
  return made;
}

type Entry = { type: string; message?: { role: string; content: unknown; stopReason?: string } };

/** What pi's model said and its tools answered, without ids and times: what must not change. */
function replies(entries: unknown[]): unknown[] {
  return (entries as Entry[])
    .filter((entry) => entry.message?.role === "assistant" || entry.message?.role === "toolResult")
    .map((entry) => ({
      role: entry.message?.role,
      content: entry.message?.content,
      stopReason: entry.message?.stopReason,
    }));
}

const PROMPTS = ["hello", "please read notes.txt"];

/** pi without the extension, for what its replies are. */
async function repliesWithoutExtension(): Promise<unknown[]> {
  const pi = new PiProcess({ world: world(), extension: false });
  try {
    for (const prompt of PROMPTS) await pi.prompt(prompt);
    return replies(await pi.entries());
  } finally {
    await pi.stop();
  }
}

const sessionIdOf = (pi: PiProcess) =>
  pi.command<{ sessionId: string }>({ type: "get_state" }).then((state) => state.sessionId);

test("the playground down when pi starts: pi answers as without it, and the live session catches up with every entry once the playground starts", async ({
  request,
  page,
}) => {
  test.setTimeout(180_000);
  const expected = await repliesWithoutExtension();
  const url = `http://127.0.0.1:${LATE_PLAYGROUND_PORT}`;
  const pi = new PiProcess({
    world: world(),
    env: { PI_PLAYGROUND_URL: url, PI_PLAYGROUND_TOKEN: LIVE_TOKEN },
  });
  try {
    for (const prompt of PROMPTS) await pi.prompt(prompt);
    const entries = await pi.entries();
    expect(replies(entries)).toEqual(expected);
    // Said once, however often the extension tried.
    expect(pi.stderr.match(/No playground answers at/g)).toHaveLength(1);

    playground = await startPlayground(LATE_PLAYGROUND_PORT, { PI_PLAYGROUND_TOKEN: LIVE_TOKEN });
    const sessionId = await sessionIdOf(pi);
    await expect
      .poll(async () => (await liveState(url, request, sessionId))?.entries.length, { timeout: 20_000 })
      .toBe(entries.length);
    expect((await liveState(url, request, sessionId))?.entries).toEqual(entries);
    await expect.poll(() => pi.stderr.includes("This session is live in the playground")).toBe(true);

    // And it goes on live: the next prompt's entries arrive as pi appends them.
    await pi.prompt("hello again");
    const more = await pi.entries();
    await expect
      .poll(async () => (await liveState(url, request, sessionId))?.entries, { timeout: 10_000 })
      .toEqual(more);
    await page.goto(url);
    await expect(
      page.getByRole("list", { name: "Session list" }).getByRole("button", { name: /^live\s*pi · project/ }),
    ).toBeVisible();
  } finally {
    await pi.stop();
  }
});

test("a wrong pairing token: the playground refuses it, pi says so once on stderr and carries on", async ({
  request,
}) => {
  test.setTimeout(180_000);
  const expected = await repliesWithoutExtension();
  playground = await startPlayground(LATE_PLAYGROUND_PORT, { PI_PLAYGROUND_TOKEN: LIVE_TOKEN });
  const pi = new PiProcess({
    world: world(),
    env: { PI_PLAYGROUND_URL: playground.url, PI_PLAYGROUND_TOKEN: "a-wrong-pairing-token-0123456789" },
  });
  try {
    await pi.prompt(PROMPTS[0]!);
    // Long enough for the extension to try again several times (its backoff starts at half a second).
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    await pi.prompt(PROMPTS[1]!);
    expect(replies(await pi.entries())).toEqual(expected);
    const refusals = pi.stderr.match(/refused this pi: Wrong pairing token/g) ?? [];
    expect(refusals).toHaveLength(1);
    expect(pi.stderr).not.toContain("This session is live in the playground");
    // The playground holds nothing of it.
    const headers = { Authorization: `Bearer ${await pageToken(playground.url, request)}` };
    expect(await connectionIds(playground.url, headers)).toEqual([]);
  } finally {
    await pi.stop();
  }
});
