import { describe, expect, it } from "vitest";
import { validateMessage } from "../messages/validate.ts";
import { pathTo } from "../messages/entries.ts";
import { projectModelView } from "../model-view/project.ts";
import { projectSession } from "../model-view/session-projection.ts";
import { buildExamples, exampleEntries, exampleSettings } from "./examples.ts";

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
