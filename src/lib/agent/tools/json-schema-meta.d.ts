// The meta-schema validator compiled at build time (scripts/json-schema-validator.mjs).
declare module "virtual:json-schema-meta-validator" {
  export interface MetaValidationError {
    instancePath: string;
    keyword: string;
    message?: string;
    params: Record<string, unknown>;
  }
  interface MetaValidate {
    (schema: unknown): boolean;
    errors?: MetaValidationError[] | null;
  }
  const validate: MetaValidate;
  export default validate;
}

// Validators of the vendored LHAR schema, compiled at build time (scripts/json-schema-validator.mjs).
declare module "virtual:lhar-validator" {
  export interface LharValidationError {
    instancePath: string;
    keyword: string;
    message?: string;
    params: Record<string, unknown>;
  }
  interface LharValidate {
    (value: unknown): boolean;
    errors?: LharValidationError[] | null;
  }
  export const validateWrapped: LharValidate;
  export const validateSession: LharValidate;
  export const validateEntry: LharValidate;
}
