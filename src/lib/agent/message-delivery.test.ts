import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { contentText } from "@earendil-works/pi-ai";
import { describe, expect, it } from "vitest";
import { createCustomMessage, createUserMessage } from "../messages/factories.ts";
import { MessageDelivery, type Delivery, type DeliveryHost } from "./message-delivery.ts";

/** What the session saw: runs started (with what they prompted), queued messages, facts and held ones. */
function session({ running = false, held = [] as AgentMessage[] } = {}) {
  const seen = {
    running,
    prompts: [] as AgentMessage[][],
    steering: [] as AgentMessage[],
    followUps: [] as AgentMessage[],
    facts: [] as AgentMessage[],
    held: [...held],
    idleChanges: 0,
    removed: [] as string[],
  };
  const host: DeliveryHost = {
    running: () => seen.running,
    run: async (start) => {
      await start({
        prompt: async (input: AgentMessage | AgentMessage[] | string) => {
          seen.prompts.push(typeof input === "string" ? [createUserMessage(input)] : [input].flat());
        },
      });
      return true;
    },
    whileIdle: async (change) => {
      seen.idleChanges++;
      change();
    },
    queues: {
      steer: (message) => void seen.steering.push(message),
      followUp: (message) => void seen.followUps.push(message),
      remove: (queue, index) => void seen.removed.push(`${queue}:${index}`),
      clear: () => void seen.removed.push("all"),
    },
    settings: {
      holdForNextTurn: async (message) => void seen.held.push(message),
      takeNextTurn: () => seen.held.splice(0),
      removeHeld: async (index) => void seen.removed.push(`nextTurn:${index}`),
      clearHeld: async () => void seen.removed.push("held"),
    },
    append: (messages) => void seen.facts.push(...messages),
  };
  return { seen, delivery: new MessageDelivery(host) };
}

const note = (text: string) => createCustomMessage("note", text, true);
const texts = (messages: readonly AgentMessage[]) =>
  messages.map((message) =>
    message.role === "user" || message.role === "custom" ? contentText(message.content, "") : message.role,
  );

describe("prompts", () => {
  it("start a run with the messages held for the next turn after them; blank ones are not taken", async () => {
    const { seen, delivery } = session({ held: [note("held")] });
    expect(await delivery.send("   ")).toBe(false);
    expect(await delivery.send("  hello  ")).toBe(true);
    expect(seen.prompts.map(texts)).toEqual([["hello", "held"]]);
    expect(seen.held).toEqual([]);
  });

  it("steer the run in progress; steering and following up with no run send a prompt", async () => {
    const running = session({ running: true });
    await running.delivery.send("sent");
    await running.delivery.steer("steered");
    await running.delivery.followUp("later");
    expect(texts(running.seen.steering)).toEqual(["sent", "steered"]);
    expect(texts(running.seen.followUps)).toEqual(["later"]);
    expect(running.seen.prompts).toEqual([]);

    const idle = session();
    await idle.delivery.steer("steered");
    await idle.delivery.followUp("later");
    expect(idle.seen.prompts.map(texts)).toEqual([["steered"], ["later"]]);
  });
});

describe("hand-made messages, by pi's sendCustomMessage", () => {
  const cases: [Delivery, boolean, string][] = [
    ["nextTurn", false, "held"],
    ["nextTurn", true, "held"],
    ["append", false, "fact"],
    ["append", true, "after the turn"],
    ["appendAndRun", false, "run"],
    ["appendAndRun", true, "steering"],
    ["steer", false, "fact"],
    ["steer", true, "steering"],
    ["followUp", false, "fact"],
    ["followUp", true, "follow-up"],
  ];

  it.each(cases)("%s while running=%s lands as: %s", async (how, running, where) => {
    const { seen, delivery } = session({ running });
    const message = note("hand-made");
    await delivery.inject(message, how);
    const landed = () =>
      Object.entries({
        held: seen.held,
        fact: seen.facts,
        run: seen.prompts.flat(),
        steering: seen.steering,
        "follow-up": seen.followUps,
      })
        .filter(([, messages]) => messages.includes(message))
        .map(([place]) => place);
    if (where === "after the turn") {
      expect(landed()).toEqual([]);
      delivery.turnEnded();
      expect(landed()).toEqual(["fact"]);
    } else expect(landed()).toEqual([where]);
    // Only an idle append takes the session's lock; everything else goes where the run is.
    expect(seen.idleChanges).toBe(where === "fact" ? 1 : 0);
  });
});

describe("what waits for the end of a turn or a run", () => {
  it("appends during a run join at the turn's end; bash executions only when the run ends, after them", async () => {
    const { seen, delivery } = session({ running: true });
    await delivery.recordBash(note("bash"));
    await delivery.inject(note("first"), "append");
    delivery.turnEnded();
    expect(texts(seen.facts)).toEqual(["first"]);
    await delivery.inject(note("second"), "append");
    seen.running = false;
    delivery.runEnded();
    expect(texts(seen.facts)).toEqual(["first", "second", "bash"]);
    delivery.runEnded();
    delivery.turnEnded();
    expect(seen.facts).toHaveLength(3);
  });

  it("records bash at once while idle", async () => {
    const { seen, delivery } = session();
    await delivery.recordBash(note("bash"));
    expect(texts(seen.facts)).toEqual(["bash"]);
  });
});

describe("the queues", () => {
  it("removes from the Agent's queues or from the messages held for the next turn, and clears both", () => {
    const { seen, delivery } = session();
    delivery.removeQueued("steering", 1);
    delivery.removeQueued("nextTurn", 0);
    delivery.clearQueues();
    expect(seen.removed).toEqual(["steering:1", "nextTurn:0", "all", "held"]);
  });
});
