import { Agent } from "@earendil-works/pi-agent-core";
import { describe, expect, it } from "vitest";
import { chainEntries, pathTo } from "../messages/entries.ts";
import { createUserMessage } from "../messages/factories.ts";
import type { EntryRecord } from "../storage/records.ts";
import { indexNow } from "./transcript-index.ts";
import { Transcript } from "./transcript.svelte.ts";

const prompts = (count: number, from = 0) =>
  Array.from({ length: count }, (_, index) => createUserMessage(`prompt ${from + index}`, from + index));

const stored = (count: number): EntryRecord[] =>
  chainEntries(prompts(count), null).map((entry, seq) => ({ schema: 1, sessionId: "s", seq, rev: 0, entry }));

describe("Transcript", () => {
  it("gives the Agent its context uncopied, and pi's setter makes the Agent's copy (pi's documented promise)", () => {
    const transcript = new Transcript(indexNow(stored(3), null));
    // Never called: the test gives the Agent messages and reads them, and runs nothing.
    const agent = new Agent({
      streamFn: () => {
        throw new Error("no call in this test");
      },
    });
    transcript.bindAgent(agent);
    expect(agent.state.messages).toEqual(transcript.projection.context);
    // pi's own array: what the transcript appends later does not reach the Agent until it is synced again.
    expect(agent.state.messages).not.toBe(transcript.projection.context);
    transcript.append(prompts(2, 3));
    expect(agent.state.messages).toHaveLength(3);
    expect(transcript.projection.context).toHaveLength(5);
    transcript.syncAgent();
    expect(agent.state.messages).toEqual(transcript.projection.context);
  });

  it("keeps one array for the path and the entries while the session has no branch", () => {
    const transcript = new Transcript(indexNow(stored(4), null));
    expect(transcript.path).toBe(transcript.entries);
    transcript.append(prompts(2, 4));
    expect(transcript.path).toBe(transcript.entries);
    expect(transcript.path).toHaveLength(6);
    // A fact replaced (an approval decided) is replaced in both, which stay one.
    const replacement = createUserMessage("replaced", 99);
    transcript.replaceAt(1, replacement);
    expect(transcript.path).toBe(transcript.entries);
    expect(transcript.facts[1]).toBe(replacement);

    // A branch: the path goes its own way, and the entries keep every one.
    const [, second] = transcript.entries;
    transcript.moveLeaf(second?.id ?? null);
    transcript.append(prompts(1, 10));
    expect(transcript.path).not.toBe(transcript.entries);
    expect(transcript.entries).toHaveLength(7);
    expect(transcript.path).toEqual(pathTo(transcript.entries, transcript.leafId));
    expect(transcript.path).toHaveLength(3);
  });

  it("gives separate arrays to a stored session whose leaf is not its last entry", () => {
    const records = stored(5);
    const index = indexNow(records, records[2]?.entry.id ?? null);
    expect(index.path).not.toBe(index.order);
    expect(index.path).toHaveLength(3);
  });
});
