// The JSON Schema meta-schema's validator, compiled by ajv when the page is built. ajv validates a schema by
// compiling a validator for the meta-schema into a function (`new Function`), which the page's
// Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval') refuses; compiled here, at build time, it is
// ordinary code in the page's bundle. Served as the virtual module `virtual:json-schema-meta-validator`.
import Ajv from "ajv";
import standaloneCode from "ajv/dist/standalone/index.js";

const ID = "virtual:json-schema-meta-validator";
const RESOLVED = `\0${ID}`;
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

export function jsonSchemaMetaValidator() {
  return {
    name: "json-schema-meta-validator",
    resolveId: (id) => (id === ID ? RESOLVED : undefined),
    load: (id) => (id === RESOLVED ? metaValidatorSource() : undefined),
  };
}
