import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { AgentMessage } from "@earendil-works/pi-agent-core";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { convertToLlm } from "../convert.ts";
import { DEFAULT_POLICIES } from "../policies.ts";
import { preview, roleBadge } from "../preview.ts";
import type { ProgressMessage } from "../types.ts";
import { MESSAGE_KINDS, isKnownRole, kindOf, registerMessageKind, type MessageKindTable } from "./index.ts";
import type { Fact, MessageKind } from "./kind.ts";
import { progressKind } from "./progress.ts";
import { unknownKind } from "./unknown.ts";

describe("the message-kind registry", () => {
  it("has one kind per role, each under its own role", () => {
    for (const [role, kind] of Object.entries(MESSAGE_KINDS)) {
      expect(kind.role).toBe(role);
      expect(kindOf({ role, timestamp: 0 })).toBe(kind);
    }
  });

  it("gives a fact of a role nobody registered the generic kind: never sent, still shown", () => {
    const fact = { role: "artifact", customType: "plan", timestamp: 1 } as unknown as AgentMessage;
    expect(kindOf(fact)).toBe(unknownKind);
    expect(isKnownRole("artifact")).toBe(false);
    expect(convertToLlm([fact])).toEqual([]);
    expect(roleBadge(fact)).toBe("artifact:plan");
    expect(preview(fact)).toContain('"role":"artifact"');
  });

  it("refuses a second kind for a role that has one", () => {
    expect(() => registerMessageKind({ ...unknownKind, role: "progress" })).toThrow(/registered already/);
  });

  it("takes a role added while the page runs, and forgets it when told", () => {
    interface Sticky extends Fact {
      role: "sticky";
      note: string;
    }
    const sticky: MessageKind<Sticky> = {
      ...(unknownKind as MessageKind<Fact> as unknown as MessageKind<Sticky>),
      role: "sticky",
      convert: () => ({
        fate: "converted",
        build: (message) => ({ role: "user", content: [{ type: "text", text: message.note }], timestamp: 2 }),
        key: "",
        byPolicy: false,
      }),
      preview: (message) => `note: ${message.note}`,
    };
    const remove = registerMessageKind(sticky);
    try {
      const fact = { role: "sticky", note: "water the plants", timestamp: 2 } as unknown as AgentMessage;
      expect(convertToLlm([fact], DEFAULT_POLICIES)).toEqual([
        { role: "user", content: [{ type: "text", text: "water the plants" }], timestamp: 2 },
      ]);
      expect(preview(fact)).toBe("note: water the plants");
    } finally {
      remove();
    }
    expect(isKnownRole("sticky")).toBe(false);
  });
});

describe("the registry's types", () => {
  it("refuse a kind that lacks a part, and a table that lacks a kind", () => {
    const { title: _title, ...withoutTitle } = progressKind;
    // @ts-expect-error a kind without its tree title is no message kind
    const broken: MessageKind<ProgressMessage> = withoutTitle;
    const { progress: _progress, ...withoutProgress } = MESSAGE_KINDS;
    // @ts-expect-error a table without the progress kind is not the registry
    const table: MessageKindTable = withoutProgress;
    expect([broken, table]).toHaveLength(2);
  });

  it("make removing one part from one kind's module a compile error of the registry", () => {
    // The compiler's own verdict on the real modules, with one line of progress.ts taken out: what
    // `npm run check` would say to a contributor who forgot a part.
    const index = fileURLToPath(new URL("./index.ts", import.meta.url));
    const progress = fileURLToPath(new URL("./progress.ts", import.meta.url));
    const config = ts.getParsedCommandLineOfConfigFile(
      fileURLToPath(new URL("../../../../tsconfig.json", import.meta.url)),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    if (!config) throw new Error("tsconfig.json could not be read.");
    const source = readFileSync(progress, "utf8");
    const withoutTitle = source.replace(/^ {2}title: .*\n/m, "");
    expect(withoutTitle).not.toBe(source);

    let previous: ts.Program | undefined;
    const diagnose = (text: string) => {
      const host = ts.createCompilerHost(config.options);
      const readFile = host.readFile.bind(host);
      host.readFile = (name) => (name === progress ? text : readFile(name));
      const program = ts.createProgram([index], config.options, host, previous);
      previous = program;
      // The registry and the kind's module are what a missing part breaks; checking only them is enough.
      return [index, progress].flatMap((file) =>
        ts
          .getPreEmitDiagnostics(program, program.getSourceFile(file))
          .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")),
      );
    };
    expect(diagnose(source)).toEqual([]);
    expect(diagnose(withoutTitle).join("\n")).toMatch(/title/);
  });
});
