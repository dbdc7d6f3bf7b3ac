import { isObject } from "../../../shared/is-object.ts";
import { TOOL_LIMITS } from "./tool-limits.ts";

/**
 * A template over a tool call's arguments: `{{path}}` is the argument at that dotted path (a string as it
 * is, anything else as JSON), `{{$args}}` all of them as JSON. A path the arguments do not have is an error
 * the model reads as the tool's result, rather than a silent empty value.
 */
export function renderTemplate(template: string, args: unknown): { text: string } | { error: string } {
  const missing: string[] = [];
  const text = template.replace(/\{\{\s*([$\w][\w.-]*)\s*\}\}/g, (_, path: string) => {
    const value = path === "$args" ? args : valueAt(args, path);
    if (value === undefined) {
      missing.push(path);
      return "";
    }
    return typeof value === "string" ? value : JSON.stringify(value);
  });
  if (missing.length > 0)
    return {
      error: `The tool's template names ${missing.map((path) => `{{${path}}}`).join(", ")}, which this call's arguments do not have.`,
    };
  if (text.length > TOOL_LIMITS.resultChars)
    return {
      error: `The tool's template made a result of ${text.length.toLocaleString("en-US")} characters; at most ${TOOL_LIMITS.resultChars.toLocaleString("en-US")} are sent.`,
    };
  return { text };
}

function valueAt(root: unknown, path: string): unknown {
  let value = root;
  for (const key of path.split(".")) {
    if (!isObject(value) && !Array.isArray(value)) return undefined;
    if (!Object.hasOwn(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** The placeholders a template uses, for the editor to check against the schema's properties. */
export function templatePlaceholders(template: string): string[] {
  return [...template.matchAll(/\{\{\s*([$\w][\w.-]*)\s*\}\}/g)].map((match) => match[1] as string);
}
