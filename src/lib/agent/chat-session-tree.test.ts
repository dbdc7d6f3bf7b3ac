import { describe, expect, it, vi } from "vitest";
import { createCustomMessage } from "../messages/factories.ts";
import { ChatSession } from "./chat-session.svelte.ts";
import { roles, stored, useFakeProxy, world } from "./chat-session.test-support.ts";

/**
 * pi's session model on the live session: branches in one tree, context edits that change what the model
 * reads and never the facts, and the delivery rules of hand-made messages during a run.
 */

const proxy = useFakeProxy();

/** The texts of the last request after its system prompt, role-prefixed, as the model received them. */
const lastRequest = () =>
  proxy.requests
    .at(-1)
    ?.filter((message) => message.role !== "system")
    .map((message) => `${message.role}:${message.text}`);

async function twoTurns() {
  const { store, tab } = world();
  const deps = tab("a");
  const session = await ChatSession.create(deps);
  await session.send("first");
  await session.send("second");
  return { store, tab, deps, session };
}

/** Hold the proxy's answers until the returned function is called: the run stays active meanwhile. */
function holdReplies(): () => void {
  let release = (): void => undefined;
  proxy.gate = new Promise<void>((resolve) => {
    release = () => {
      proxy.gate = undefined;
      resolve();
    };
  });
  return release;
}

describe("branches", () => {
  it("continues from an earlier fact on a new branch, keeping the old one in the tree and in storage", async () => {
    const { store, session } = await twoTurns();
    expect(roles(session.facts)).toEqual([
      "system",
      "user:first",
      "assistant:reply 1",
      "user:second",
      "assistant:reply 2",
    ]);
    const oldLeaf = session.leafId;
    await session.branches.branchFrom(2);
    await session.send("instead");
    expect(lastRequest()).toEqual(["user:first", "assistant:reply 1", "user:instead"]);
    expect(roles(session.facts)).toEqual([
      "system",
      "user:first",
      "assistant:reply 1",
      "user:instead",
      "assistant:reply 3",
    ]);
    // Both branches stay: the reply the branch started from has two children now.
    const fork = session.branches.entryIdAt(2) as string;
    await session.branches.treeCode();
    expect(session.branches.tree?.children.get(fork)?.length).toBe(2);
    expect(session.branches.tree?.byId.has(oldLeaf as string)).toBe(true);
    await session.saveNow();
    expect(await stored(store, session.id)).toEqual(roles(session.facts));
  });

  it("switches back to the other branch at its latest leaf, and the next request follows that path", async () => {
    const { session } = await twoTurns();
    const secondPrompt = session.branches.entryIdAt(3) as string;
    await session.branches.branchFrom(2);
    await session.send("instead");
    await session.branches.switchBranch(secondPrompt);
    expect(roles(session.facts)).toEqual([
      "system",
      "user:first",
      "assistant:reply 1",
      "user:second",
      "assistant:reply 2",
    ]);
    await session.send("third");
    expect(lastRequest()).toEqual([
      "user:first",
      "assistant:reply 1",
      "user:second",
      "assistant:reply 2",
      "user:third",
    ]);
  });

  it("leaves a summary of the branch it left where the other one continues, and the model reads it", async () => {
    const { session } = await twoTurns();
    const secondPrompt = session.branches.entryIdAt(3) as string;
    await session.branches.branchFrom(2);
    await session.send("instead");
    await session.branches.switchBranch(secondPrompt, { summary: "Tried 'instead'; it led nowhere." });
    const last = session.facts.at(-1);
    expect(last?.role).toBe("branchSummary");
    await session.send("go on");
    const request = (proxy.requests.at(-1) ?? []).filter((message) => message.role !== "system");
    expect(request.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "user",
    ]);
    const summaryEntry = session.branches.path.find((entry) => entry.type === "branch_summary");
    expect(summaryEntry).toMatchObject({ summary: "Tried 'instead'; it led nowhere." });
  });

  it("regenerates a reply on a branch of its own: the request ends at the prompt it answered", async () => {
    const { session } = await twoTurns();
    const oldReply = session.branches.entryIdAt(4) as string;
    await session.branches.regenerate(4);
    expect(lastRequest()).toEqual(["user:first", "assistant:reply 1", "user:second"]);
    expect(roles(session.facts).at(-1)).toBe("assistant:reply 3");
    await session.branches.treeCode();
    expect(session.branches.tree?.byId.has(oldReply)).toBe(true);
    expect(session.branches.tree?.children.get(session.branches.entryIdAt(3) as string)?.length).toBe(2);
  });

  it("edits and resends a prompt in place of the old one, which stays on its branch", async () => {
    const { session } = await twoTurns();
    const oldPrompt = session.branches.entryIdAt(3) as string;
    expect(await session.branches.editAndResend(3, "second, reworded")).toBe(true);
    expect(lastRequest()).toEqual(["user:first", "assistant:reply 1", "user:second, reworded"]);
    expect(roles(session.facts).slice(3)).toEqual(["user:second, reworded", "assistant:reply 3"]);
    await session.branches.treeCode();
    expect(session.branches.tree?.byId.has(oldPrompt)).toBe(true);
    expect(await session.branches.editAndResend(3, "   ")).toBe(false);
  });
});

describe("context edits", () => {
  it("sends the edited content next while the fact keeps the original; its fate shows both", async () => {
    const { session } = await twoTurns();
    await session.branches.editFact(1, "first, as edited");
    expect(roles(session.facts)[1]).toBe("user:first");
    const fate = session.projection.fates[1];
    expect(fate?.kind).toBe("edited");
    await session.send("third");
    expect(lastRequest()?.[0]).toBe("user:first, as edited");
  });

  it("omits a fact from the next request and restores it again", async () => {
    const { session } = await twoTurns();
    await session.branches.omitFact(3);
    expect(session.projection.fates[3]?.kind).toBe("omitted");
    await session.send("third");
    expect(lastRequest()).toEqual(["user:first", "assistant:reply 1", "assistant:reply 2", "user:third"]);
    await session.branches.restoreFact(3);
    expect(session.projection.fates[3]?.kind).toBe("in");
    await session.send("fourth");
    expect(lastRequest()?.slice(0, 4)).toEqual([
      "user:first",
      "assistant:reply 1",
      "user:second",
      "assistant:reply 2",
    ]);
  });

  it("survives a reload: edits are entries of the session", async () => {
    const { store, tab, session } = await twoTurns();
    await session.branches.editFact(1, "edited once");
    await session.saveNow();
    await session.close();
    const reopened = await ChatSession.open(tab("b"), session.id);
    expect(reopened?.projection.fates[1]?.kind).toBe("edited");
    expect(reopened?.modelView.messages[1]).toMatchObject({ role: "user", content: "edited once" });
    expect(await stored(store, session.id)).toEqual(roles(session.facts));
  });
});

describe("hand-made messages during a run, by pi's delivery rules", () => {
  it("appends a message without a trigger when the turn ends, never between a reply and its run", async () => {
    const { tab } = world();
    const session = await ChatSession.create(tab("a"));
    const release = holdReplies();
    const run = session.send("hello");
    await vi.waitFor(() => expect(proxy.requests).toHaveLength(1));
    await session.inject(createCustomMessage("note", "appended mid-run", true), "append");
    // Not yet: the turn is still streaming.
    expect(session.facts.some((fact) => fact.role === "custom")).toBe(false);
    release();
    await run;
    expect(session.facts.map((fact) => fact.role)).toEqual(["system", "user", "assistant", "custom"]);
    // Appending makes no call of its own.
    expect(proxy.requests).toHaveLength(1);
  });

  it("appends a steering or follow-up message when no run is there to take it, without calling the model", async () => {
    const { tab } = world();
    const session = await ChatSession.create(tab("a"));
    await session.inject(createCustomMessage("note", "steer while idle", true), "steer");
    await session.inject(createCustomMessage("note", "follow up while idle", true), "followUp");
    expect(session.facts.map((fact) => fact.role)).toEqual(["system", "custom", "custom"]);
    expect(proxy.requests).toHaveLength(0);
  });

  it("delivers queued follow-ups one per turn, or all at once, as the session's queue mode says", async () => {
    const deliveries = async (mode: "all" | "one-at-a-time") => {
      const { tab } = world();
      const session = await ChatSession.create(tab("a"));
      await session.setQueueMode("followUp", mode);
      const before = proxy.requests.length;
      const release = holdReplies();
      const run = session.send("hello");
      await vi.waitFor(() => expect(proxy.requests.length).toBe(before + 1));
      await session.followUp("one");
      await session.followUp("two");
      release();
      await run;
      await vi.waitFor(() => expect(session.running).toBe(false));
      expect(session.settings.queueModes.followUp).toBe(mode);
      return proxy.requests.length - before;
    };
    // hello, then "one" and "two" in one turn or in two.
    expect(await deliveries("all")).toBe(2);
    expect(await deliveries("one-at-a-time")).toBe(3);
  });
});
