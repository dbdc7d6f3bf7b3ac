import type { AgentMessage } from "@earendil-works/pi-agent-core";
import { MESSAGE_KINDS, type KnownRole } from "../messages/kinds/index.ts";
import type { FormField, FormPart, FormValues } from "../messages/kinds/kind.ts";
import { LLM_ROLES } from "../messages/types.ts";

/**
 * The injection dialog's forms: one per message kind that offers one (its `form` part, in
 * `src/lib/messages/kinds/<role>.ts`), described as data so that the component only renders fields.
 * What people type becomes a message in form-message.ts; the JSON tab's side is json-tab.ts.
 */
export type InjectKind = {
  [R in KnownRole]: (typeof MESSAGE_KINDS)[R]["form"] extends null ? never : R;
}[KnownRole];

export type FieldSpec = FormField;
export type { FormValues };

const MODEL_ROLES: ReadonlySet<string> = new Set(LLM_ROLES);
const WITH_FORM = (Object.keys(MESSAGE_KINDS) as KnownRole[]).filter(
  (role): role is InjectKind => MESSAGE_KINDS[role].form !== null,
);

/** The kinds the dialog offers: the session's own fact types first, then the model's roles. */
export const INJECT_KINDS: readonly InjectKind[] = [
  ...WITH_FORM.filter((role) => !MODEL_ROLES.has(role)),
  ...WITH_FORM.filter((role) => MODEL_ROLES.has(role)),
];

/** A kind's form. */
export function formOf(kind: InjectKind): FormPart<AgentMessage> {
  return MESSAGE_KINDS[kind].form as unknown as FormPart<AgentMessage>;
}

export const KIND_LABELS = Object.fromEntries(
  INJECT_KINDS.map((kind) => [kind, MESSAGE_KINDS[kind].label]),
) as Record<InjectKind, string>;

export const FORMS = Object.fromEntries(INJECT_KINDS.map((kind) => [kind, formOf(kind).fields])) as Record<
  InjectKind,
  readonly FieldSpec[]
>;

export function initialValues(kind: InjectKind): FormValues {
  const values: FormValues = {};
  for (const field of FORMS[kind]) {
    values[field.name] =
      field.input === "checkbox" ? false : field.input === "select" ? (field.options?.[0] ?? "") : "";
  }
  return { ...values, ...formOf(kind).initial };
}
