import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { estimateTextTokens } from "@earendil-works/pi-ai/utils/estimate";
import type { Component } from "svelte";
import { render } from "svelte/server";
import { describe, expect, it } from "vitest";
import { userTextCategory } from "./lib/anatomy/categories.ts";
import { convertToLlm } from "./lib/messages/convert.ts";
import { messageEntry } from "./lib/messages/entries.ts";
import {
  createApprovalRequest,
  createBashExecution,
  createBranchSummary,
  createCompactionSummary,
  createCustomMessage,
  createNotification,
  createProgress,
} from "./lib/messages/factories.ts";
import { text, timestamp } from "./lib/messages/kinds/fields.ts";
import { kindOf, MESSAGE_KINDS, registerMessageKind } from "./lib/messages/kinds/index.ts";
import { userText, type Fact, type FactViewProps, type MessageKind } from "./lib/messages/kinds/kind.ts";
import { DEFAULT_POLICIES } from "./lib/messages/policies.ts";
import { preview, roleBadge } from "./lib/messages/preview.ts";
import { validateMessage } from "./lib/messages/validate.ts";
import { buildTree, entryTitle } from "./lib/model-view/session-tree.ts";
import { factTokens } from "./lib/model-view/view-tokens.ts";

/**
 * Adding a message type is one module and one line: here a throwaway role is registered through the
 * registry alone (the kind below), and every place that handles facts treats it as its kind says.
 */
interface StickyNote extends Fact {
  role: "sticky";
  note: string;
}

const stickyKind: MessageKind<StickyNote> = {
  role: "sticky",
  label: "Sticky note",
  convert: () => ({
    fate: "converted",
    build: (message) => userText(`[Sticky] ${message.note}`, message.timestamp),
    key: "",
    byPolicy: false,
  }),
  policy: null,
  badge: () => "sticky",
  preview: (message) => `sticky: ${message.note}`,
  copyText: (message) => message.note,
  tokens: (message) => estimateTextTokens(message.note),
  title: (message) => `note ${message.note}`,
  anatomy: { label: "sticky notes", lhar: "system_injections" },
  fields: { timestamp, note: text({ nonEmpty: true }) },
  editable: null,
  piEntry: null,
  // Any view takes a fact and its context; the generic one shows the fact as JSON.
  view: { load: () => import("./lib/messages/kinds/views/UnknownFactView.svelte") },
  form: {
    fields: [{ name: "note", label: "Note", input: "text" }],
    initial: {},
    build: (form) => ({ role: "sticky", note: form.required("note", "Note"), timestamp: 0 }),
  },
};

const sticky = (note: string) => ({ role: "sticky", note, timestamp: 7 }) as unknown as AgentMessage;

describe("a message kind registered through the registry alone", () => {
  it("is validated, converted, rendered, counted and listed as its kind says, and forgotten when removed", async () => {
    const remove = registerMessageKind(stickyKind);
    try {
      const fact = sticky("water the plants");
      // Validated with its own fields and sentences.
      expect(validateMessage(fact)).toEqual({ ok: true, message: fact });
      expect(validateMessage({ role: "sticky", note: " ", timestamp: 7 })).toEqual({
        ok: false,
        errors: [{ field: "note", message: "note must not be empty." }],
      });
      // Converted: the model reads it as its kind says.
      expect(convertToLlm([fact], DEFAULT_POLICIES)).toEqual([
        { role: "user", content: [{ type: "text", text: "[Sticky] water the plants" }], timestamp: 7 },
      ]);
      // Rendered: the chat's view of it, as the page would draw it.
      const kind = kindOf(fact);
      if (!("load" in kind.view)) throw new Error("The sticky kind names a view of its own.");
      const { default: View } = await kind.view.load();
      const context = {
        policies: DEFAULT_POLICIES,
        busy: false,
        isWaitingFor: () => false,
        decide: () => undefined,
        branchTitle: () => undefined,
      };
      const html = render(View as Component<FactViewProps<AgentMessage>>, {
        props: { message: fact, context },
      }).body;
      expect(html).toContain("sticky");
      expect(html).toContain("water the plants");
      // Counted: its size, and its category in the anatomy when the model reads it.
      expect(factTokens(fact)).toBe(estimateTextTokens("water the plants"));
      expect(userTextCategory("sticky")).toBe("custom");
      // Listed: the inspector's rows, the chat's copy and the session tree name it by what it says.
      expect([roleBadge(fact), preview(fact), kind.copyText(fact)]).toEqual([
        "sticky",
        "sticky: water the plants",
        "water the plants",
      ]);
      const entry = messageEntry(fact, null, "e1");
      expect(entryTitle(buildTree([entry]), entry)).toBe("note water the plants");
      // Made by its form.
      const form = kind.form;
      if (!form) throw new Error("The sticky kind offers a form.");
      const errors: string[] = [];
      const made = form.build({
        text: () => "",
        flag: () => false,
        required: (_name, label) => (errors.push(label), "buy milk"),
        optionalNumber: () => undefined,
        requiredNumber: () => 0,
        json: () => undefined,
      });
      expect(validateMessage({ ...made, timestamp: 1 }).ok).toBe(true);
    } finally {
      remove();
    }
    // Without its kind the same fact is of a role nobody registered: kept and shown, never sent.
    const fact = sticky("water the plants");
    expect(convertToLlm([fact], DEFAULT_POLICIES)).toEqual([]);
    expect(validateMessage(fact).ok).toBe(false);
    expect(validateMessage(fact, { asPiReads: true }).ok).toBe(true);
    expect(roleBadge(fact)).toBe("sticky");
    expect(factTokens(fact)).toBe(0);
  });
});

describe("every kind's own view", () => {
  const context = {
    policies: DEFAULT_POLICIES,
    busy: false,
    isWaitingFor: () => true,
    decide: () => undefined,
    branchTitle: () => "“the other branch”",
  };
  const facts: AgentMessage[] = [
    createNotification("the build finished", "warning", 1),
    createApprovalRequest({ action: "Deploy to production", subject: "ticket 7" }, 2),
    createProgress("indexing", 0.5, 3),
    createBashExecution(
      { command: "ls -la", output: "total 0", exitCode: 2, cancelled: false, truncated: false },
      4,
    ),
    createCustomMessage("calendar", "lunch at noon", true, undefined, 5),
    createBranchSummary("tried the other approach", "e1", 6),
    createCompactionSummary("we talked about lunch", 1234, 7),
    { role: "artifact", customType: "plan", body: "step one", timestamp: 8 } as unknown as AgentMessage,
  ];

  it("covers every kind that has a view of its own", () => {
    const withViews = Object.values(MESSAGE_KINDS).filter((kind) => "load" in kind.view);
    expect(new Set(facts.map((fact) => kindOf(fact).role))).toEqual(
      new Set([...withViews.map((kind) => kind.role), "(unknown)"]),
    );
  });

  it.each(facts.map((fact) => [fact.role, fact] as const))("resolves and renders %s", async (_role, fact) => {
    const view = kindOf(fact).view;
    if (!("load" in view)) throw new Error(`${fact.role} has a view of its own.`);
    const { default: View } = await view.load();
    const html = render(View as Component<FactViewProps<AgentMessage>>, {
      props: { message: fact, context },
    }).body;
    // What a person knows the fact by is on the page.
    const said = kindOf(fact).copyText(fact).split("\n")[0] ?? "";
    expect(html).toContain(said.replace("$ ", "").replaceAll('"', "&quot;").slice(0, 12));
  });
});
