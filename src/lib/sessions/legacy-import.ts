import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { chainEntries } from "../messages/entries.ts";
import { nestsDeeperThan, tooDeepMessage } from "../messages/nesting.ts";
import { describeErrors, validateMessage } from "../messages/validate.ts";
import { isObject } from "../../shared/is-object.ts";
import { byLine, formatProblems, type ImportProblem } from "./import-problems.ts";
import { ImportError, type ImportAbout, type ParsedImport } from "./parsed-import.ts";
import type { RawEntry } from "./session-tree-read.ts";

/**
 * Files from before sessions were trees: the facts of the path, one after the other. Version 1 of the
 * playground's format (JSONL or a JSON document), version 0 (a bare JSON array of messages), and a JSONL
 * file of bare messages.
 */
export function parseFlatMessages(
  values: readonly RawEntry[],
  jsonProblems: ImportProblem[],
  about: ImportAbout,
  fileName: string,
): ParsedImport {
  const messages: AgentMessage[] = [];
  const problems = [...jsonProblems];
  for (const { line, value } of values) {
    let message = value;
    if (isObject(value) && typeof value.type === "string") {
      if (value.type === "session") continue;
      if (value.type !== "message") {
        problems.push({ line, message: `a ${value.type} entry in a file of messages; skipped` });
        continue;
      }
      message = value.message;
    }
    // Checked before anything walks the value recursively: validation, storage and display all would.
    if (nestsDeeperThan(message)) {
      problems.push({ line, message: `the message nests ${tooDeepMessage()}` });
      continue;
    }
    const validation = validateMessage(message);
    if (validation.ok) messages.push(validation.message);
    else problems.push({ line, message: describeErrors(validation.errors) });
  }
  problems.sort(byLine);
  if (messages.length === 0 && problems.length > 0) {
    throw new ImportError(`${fileName} has no importable message. ${formatProblems(problems)}`);
  }
  const entries = chainEntries(messages, null);
  return {
    ...about,
    entries,
    leafId: entries.at(-1)?.id ?? null,
    calls: [],
    problems,
    notes: [],
    addSystemFact: messages[0]?.role !== "system",
  };
}
