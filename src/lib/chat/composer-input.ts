import { createBashExecution } from "../messages/factories.ts";
import type { BashExecutionMessage } from "../messages/types.ts";

/** A composer line that records a shell command: `!cmd`, or `!!cmd` to keep it out of the model's context. */
export interface BashLine {
  command: string;
  excludeFromContext: boolean;
}

export function parseBashLine(text: string): BashLine | undefined {
  const match = /^(!!?)(.*)$/s.exec(text.trimStart());
  if (!match) return undefined;
  const command = (match[2] ?? "").trim();
  if (!command) return undefined;
  return { command, excludeFromContext: match[1] === "!!" };
}

export interface BashOutcome {
  output: string;
  /** As typed: empty means unknown. */
  exitCode: string;
}

/** Build the bash fact from the composer; the browser runs no shell, so the person supplies the output. */
export function bashFromComposer(
  line: BashLine,
  outcome: BashOutcome,
): { message: BashExecutionMessage } | { error: string } {
  const code = outcome.exitCode.trim();
  let exitCode: number | undefined;
  if (code !== "") {
    if (!/^-?\d+$/.test(code)) return { error: `Exit code must be a whole number or empty, not "${code}".` };
    exitCode = Number(code);
  }
  return {
    message: createBashExecution({
      command: line.command,
      output: outcome.output,
      exitCode,
      cancelled: false,
      truncated: false,
      excludeFromContext: line.excludeFromContext,
    }),
  };
}
