/** The text the model reads in the tool result when a person rejects a gated call. */
export function rejectionText(toolName: string, reason?: string): string {
  const because = reason?.trim().replace(/[.!?]+$/, "");
  return `The user rejected the call to ${toolName}${because ? `: ${because}.` : "."} The tool did not run.`;
}
