/** The text the model reads in the tool result when a person rejects a gated call. */
export function rejectionText(toolName: string, reason?: string): string {
  return `The user rejected the call to ${toolName}${reason ? `: ${reason}` : "."} The tool did not run.`;
}
