import { describe, expect, it } from "vitest";
import { validateMessage } from "../messages/validate.ts";
import { projectModelView } from "../model-view/project.ts";
import { pathTo } from "../messages/entries.ts";
import { projectSession } from "../model-view/session-projection.ts";
import { buildExamples, exampleEntries, exampleSettings } from "./examples.ts";
import { replySource } from "../messages/reply-source.ts";

const examples = buildExamples();
const view = (id: string) => {
  const example = examples.find((candidate) => candidate.id === id);
  if (!example) throw new Error(`no example ${id}`);
  const settings = exampleSettings(example).context;
  const entries = exampleEntries(example, []);
  return projectModelView(projectSession(pathTo(entries, entries.at(-1)?.id)), settings);
};

describe("example sessions", () => {
  it("hold only valid facts", () => {
    for (const example of examples) {
      for (const fact of example.facts)
        expect(validateMessage(fact), `${example.id}: ${JSON.stringify(fact)}`).toMatchObject({ ok: true });
    }
  });

  it("each show the fate they are about", () => {
    expect(view("bash").counts).toMatchObject({ converted: 2, excluded: 1 });
    expect(view("compaction").counts).toMatchObject({ compacted: 2, converted: 1, sent: 3 });
    expect(view("branch").counts).toMatchObject({ converted: 1 });
    expect(view("notifications-hidden").counts).toMatchObject({ hidden: 3 });
    expect(view("notifications-visible").counts).toMatchObject({ converted: 2, hidden: 0 });
    expect(view("approvals").counts).toMatchObject({ hidden: 3 });
    expect(view("custom-hidden").counts).toMatchObject({ converted: 2 });
  });
});

describe("prepared replies in examples", () => {
  it("are marked as prepared, never as a model's", () => {
    const replies = examples.flatMap((example) => example.facts).filter((fact) => fact.role === "assistant");
    expect(replies.length).toBeGreaterThan(0);
    for (const reply of replies) {
      expect(replySource(reply)).toEqual({
        label: "Prepared reply (example): no model wrote it",
        prepared: true,
      });
      expect(reply.provider).not.toMatch(/mirror/i);
    }
  });
});
