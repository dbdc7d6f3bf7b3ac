// The JSON Schema meta-schema's validator, compiled by ajv when the page is built. ajv validates a schema by
// compiling a validator for the meta-schema into a function (`new Function`), which the page's
// Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval') refuses; compiled here, at build time, it is
// ordinary code in the page's bundle. Served as the virtual module `virtual:json-schema-meta-validator`.
import { readFileSync } from "node:fs";
import Ajv from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";

const ID = "virtual:json-schema-meta-validator";
const RESOLVED = `\0${ID}`;
// The LHAR importer's validators, compiled the same way from the vendored schema (one export per form).
const LHAR_ID = "virtual:lhar-validator";
const LHAR_RESOLVED = `\0${LHAR_ID}`;
const LHAR_SCHEMA = new URL("../src/lib/sessions/lhar.schema.json", import.meta.url);
/** The meta-schema of JSON Schema draft-07, the draft tool parameters are written in. */
export const META_SCHEMA = "http://json-schema.org/draft-07/schema";

/** The validator's ES module source: `export default validate` with ajv's `errors` on the function. */
export function metaValidatorSource() {
  const ajv = new Ajv({ code: { source: true, esm: true }, allErrors: true, strict: false });
  const validate = ajv.getSchema(META_SCHEMA);
  if (!validate) throw new Error(`ajv has no meta-schema ${META_SCHEMA}`);
  // ajv's standalone code still requires its runtime helpers (deep equality for `enum`): imports instead.
  return standaloneCode
    .default(ajv, validate)
    .replace(
      /const (\w+) = require\("([^"]+)"\)\.default;/g,
      (_, name, path) => `import ${name} from "${path}";`,
    );
}

/** ajv's standalone code requires its runtime helpers: ES imports instead, for the browser bundle. */
function asModule(source) {
  return source.replace(
    /const (\w+) = require\("([^"]+)"\)\.default;/g,
    (_, name, path) => `import ${name} from "${path}";`,
  );
}

/**
 * Validators of Context Lens's LHAR schema: `validateWrapped` (a `.lhar.json` document), `validateSession`
 * and `validateEntry` (the lines of a `.lhar` file).
 */
export function lharValidatorSource() {
  const schema = JSON.parse(readFileSync(LHAR_SCHEMA, "utf8"));
  const ajv = new Ajv({
    code: { source: true, esm: true },
    allErrors: false,
    strict: false,
    inlineRefs: false,
  });
  ajv.addSchema(schema, "lhar");
  return asModule(
    standaloneCode.default(ajv, {
      validateWrapped: "lhar#/definitions/LharJsonWrapper",
      validateSession: "lhar#/definitions/LharSessionLine",
      validateEntry: "lhar#/definitions/LharRecord",
    }),
  );
}

export function jsonSchemaMetaValidator() {
  return {
    name: "json-schema-meta-validator",
    resolveId: (id) => (id === ID ? RESOLVED : id === LHAR_ID ? LHAR_RESOLVED : undefined),
    load: (id) =>
      id === RESOLVED ? metaValidatorSource() : id === LHAR_RESOLVED ? lharValidatorSource() : undefined,
  };
}
