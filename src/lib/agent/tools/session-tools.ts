import type { AgentTool, AgentToolResult } from "@earendil-works/pi-agent-core";
import type { AskedCall, TypedResult } from "../tool-answers.svelte.ts";
import { BUILTIN_EXECUTORS } from "./demo-tools.ts";
import { declarationOf, type ToolDefinition } from "./tool-definitions.ts";
import { renderTemplate } from "./tool-results.ts";

/** What running a session's tools needs from the session: a person to type the result of an "ask me" call. */
export interface ToolRunHost {
  ask(call: AskedCall, signal?: AbortSignal): Promise<TypedResult>;
}

/**
 * The Agent's tools for a session's definitions (those switched on): each declared to the model as defined,
 * and run by its result source. A result that is an error (a template naming a missing argument, an error
 * a person typed) is thrown, so pi records it as the tool's error result, as it does for a failing tool.
 */
export function agentToolsFor(definitions: readonly ToolDefinition[], host: ToolRunHost): AgentTool[] {
  return definitions
    .filter((definition) => definition.enabled)
    .map((definition) => agentTool(definition, host));
}

function agentTool(definition: ToolDefinition, host: ToolRunHost): AgentTool {
  const { source } = definition;
  return {
    ...declarationOf(definition),
    label: definition.label ?? definition.name,
    async execute(toolCallId, params, signal, onUpdate) {
      switch (source.kind) {
        case "builtin":
          return BUILTIN_EXECUTORS[source.builtin](toolCallId, params, signal, onUpdate);
        case "fixed":
          return textResult(source.json, "fixed");
        case "template": {
          const rendered = renderTemplate(source.template, params);
          if ("error" in rendered) throw new Error(rendered.error);
          return textResult(rendered.text, "template");
        }
        case "ask": {
          const typed = await host.ask({ toolCallId, toolName: definition.name, args: params }, signal);
          if (typed.isError) throw new Error(typed.text);
          return textResult(typed.text, "typed");
        }
      }
    },
  };
}

function textResult(text: string, source: "fixed" | "template" | "typed"): AgentToolResult<unknown> {
  return { content: [{ type: "text", text }], details: { source } };
}
