import { createNotification } from "../factories.ts";
import { choice, text, timestamp } from "./fields.ts";
import { NOTIFICATION_LEVELS } from "../types.ts";
import { estimateTextTokens } from "@earendil-works/pi-ai/utils/estimate";
import { DEFAULT_POLICIES } from "../policies.ts";
import type { NotificationLevel, NotificationMessage } from "../types.ts";
import { userText, type MessageKind, type ModelFate } from "./kind.ts";

export function notificationText(message: NotificationMessage): string {
  const level = message.level ?? "info";
  return level === "info" ? `[Notification] ${message.text}` : `[Notification: ${level}] ${message.text}`;
}

const AS_TEXT: ModelFate<NotificationMessage> = {
  fate: "converted",
  build: (message) => userText(notificationText(message), message.timestamp),
  key: "userText",
  byPolicy: true,
};

/** Something the user should see; the model reads it only when the session's policy says so. */
export const notificationKind = {
  role: "notification",
  label: "Notification",
  convert: (_message, policies) => (policies.notification === "hidden" ? { fate: "hidden" } : AS_TEXT),
  policy: { default: DEFAULT_POLICIES.notification },
  badge: (message) => message.role,
  preview: (message) => `${message.level ?? "info"}: ${message.text}`,
  copyText: (message) => message.text,
  tokens: (message) => estimateTextTokens(message.text),
  title: (message) => message.text,
  anatomy: { label: "notifications (by policy)", lhar: "system_injections" },
  fields: {
    timestamp,
    text: text({ nonEmpty: true }),
    // Optional, as in the tutorial's `{ role: "notification", text, timestamp }`: info when absent.
    level: choice(NOTIFICATION_LEVELS, { optional: true }),
  },
  editable: null,
  piEntry: null,
  view: { load: () => import("./views/NotificationView.svelte") },
  form: {
    fields: [
      { name: "text", label: "Text", input: "textarea" },
      { name: "level", label: "Level", input: "select", options: NOTIFICATION_LEVELS },
    ],
    initial: {},
    build: (form) =>
      createNotification(form.required("text", "Text"), form.text("level") as NotificationLevel, 0),
  },
} as const satisfies MessageKind<NotificationMessage>;
