import { expect, it } from "vitest";
import { createInjectedAssistantMessage, createUserMessage } from "../messages/factories.ts";
import { startTestWorkspace } from "./test-workspace.test-support.ts";

/** The session last chosen is the one shown, however long an earlier choice takes to open. */

it("shows the session chosen last when a large one chosen before it finishes opening after it", async () => {
  const { workspace } = await startTestWorkspace();
  // A session large enough to open over many tasks, and two small ones.
  const facts = Array.from({ length: 2_600 }, (_, index) => [
    createUserMessage(`question ${index}`, index),
    createInjectedAssistantMessage(`answer ${index}`, index),
  ]).flat();
  const large = await workspace.newSession({ title: "Large", facts });
  const small = await workspace.newSession({ title: "Small" });
  await workspace.newSession({ title: "Another" });
  if (!large || !small) throw new Error("the sessions were not made");

  const openingLarge = workspace.openSession(large.id);
  const openingSmall = workspace.openSession(small.id);
  await Promise.all([openingLarge, openingSmall]);

  expect(workspace.current?.id).toBe(small.id);
  expect(workspace.current?.meta.title).toBe("Small");
});
