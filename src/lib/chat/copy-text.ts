import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { contentParts, otherBlockLabel, partText } from "../messages/content.ts";
import { formatJson } from "../ui/format.ts";

/** The text a person expects on the clipboard when copying a chat message: what the message says. */
export function copyText(message: AgentMessage): string {
  switch (message.role) {
    case "user":
    case "custom":
    case "system":
      return contentParts(message.content).map(partText).join("\n");
    case "assistant":
      return message.content
        .map((block) => {
          if (block.type === "text") return block.text;
          if (block.type === "thinking") return "";
          if (block.type === "toolCall") return `${block.name}(${JSON.stringify(block.arguments)})`;
          return otherBlockLabel(block);
        })
        .filter((text) => text !== "")
        .join("\n\n");
    case "toolResult":
      return message.content.map(partText).join("\n");
    case "bashExecution":
      return `$ ${message.command}\n${message.output}`;
    case "branchSummary":
    case "compactionSummary":
      return message.summary;
    case "notification":
      return message.text;
    case "approval_request":
      return [message.action, message.subject].filter(Boolean).join("\n");
    case "progress":
      return message.text;
    default: {
      // A role nobody here defined: all of it, as the chat shows it.
      const unknownRole: object = message;
      return formatJson(unknownRole);
    }
  }
}
