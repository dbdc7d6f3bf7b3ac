import { describe, expect, it } from "vitest";
import type { NextCallPreview } from "../agent/session-agent.svelte.ts";
import { NextCallPreviewState } from "./next-call-preview.svelte.ts";

const preview = (id: string): NextCallPreview => ({
  request: { model: { provider: "mirror", id }, context: { messages: [] } },
  response: { payload: { kept: "all", value: { id }, bytes: 10 } },
});

function deferred<T>() {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe("the next call's preview in the calls view", () => {
  it("asks with the composer's message, or without one when it is empty", async () => {
    const asked: (string | undefined)[] = [];
    const state = new NextCallPreviewState(async (prompt) => (asked.push(prompt), preview("m")));
    await state.build({ prompt: "hello", session: [] });
    await state.build({ prompt: "   ", session: [] });
    expect(asked).toEqual(["hello", undefined]);
    expect(state.state).toBe("ready");
    expect(state.result).toEqual(preview("m"));
  });

  it("is out of date once the session or the composer changes", async () => {
    const state = new NextCallPreviewState(async () => preview("m"));
    const view = { messages: [] };
    const settings = { model: "a" };
    await state.build({ prompt: "a", session: [view, settings] });
    expect(state.outdated({ prompt: "a", session: [view, settings] })).toBe(false);
    expect(state.outdated({ prompt: "ab", session: [view, settings] })).toBe(true);
    expect(state.outdated({ prompt: "a", session: [{ messages: [] }, settings] })).toBe(true);
    expect(state.outdated({ prompt: "a", session: [view, { model: "b" }] })).toBe(true);
  });

  it("says why it could not be built", async () => {
    const state = new NextCallPreviewState(async () => {
      throw new Error("Nothing answers at http://127.0.0.1:9");
    });
    await state.build({ prompt: "", session: [] });
    expect(state.state).toBe("failed");
    expect(state.problem).toBe("The preview could not be built: Nothing answers at http://127.0.0.1:9");
  });

  it("shows the answer to the newest question, and nothing once closed", async () => {
    const slow = deferred<NextCallPreview>();
    const answers = [slow.promise, Promise.resolve(preview("newer"))];
    const state = new NextCallPreviewState(() => answers.shift() ?? Promise.reject(new Error("no more")));
    const first = state.build({ prompt: "old", session: [] });
    await state.build({ prompt: "new", session: [] });
    slow.resolve(preview("older"));
    await first;
    expect(state.result?.request.model.id).toBe("newer");
    expect(state.basis?.prompt).toBe("new");
    state.close();
    expect(state.shown).toBe(false);
    expect(state.result).toBeUndefined();
  });
});
