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
