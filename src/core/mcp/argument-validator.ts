/**
 * Checks a model's tool arguments against the tool's input schema before the call, so the model
 * hears "arguments/a must be number" from us instead of an opaque server error (or a server that
 * does something odd with a wrong type). Uses the SDK's own Ajv provider (`ajv` is the SDK's
 * dependency), compiled once per schema. A schema Ajv cannot compile is not the model's fault:
 * the call then goes ahead unchecked and the server judges.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType, JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";

export type ArgumentCheck = { readonly ok: true } | { readonly ok: false; readonly problem: string };

export class ArgumentValidator {
  private readonly provider = new AjvJsonSchemaValidator();
  private readonly compiled = new WeakMap<object, JsonSchemaValidator<unknown> | null>();

  check(schema: Readonly<Record<string, unknown>>, args: unknown): ArgumentCheck {
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return { ok: false, problem: "the arguments must be a JSON object" };
    }
    const validate = this.validatorFor(schema);
    if (!validate) return { ok: true };
    const result = validate(args);
    if (result.valid) return { ok: true };
    return { ok: false, problem: result.errorMessage.replaceAll("data/", "arguments/").replace(/^data /, "arguments ") };
  }

  private validatorFor(schema: Readonly<Record<string, unknown>>): JsonSchemaValidator<unknown> | null {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      try {
        // $schema names a draft Ajv's default instance may not know; the keywords tools use are the same.
        const { $schema: _ignored, ...rest } = schema;
        validate = this.provider.getValidator(rest as JsonSchemaType);
      } catch {
        validate = null;
      }
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}
