/**
 * Checks a model's tool arguments against the tool's input schema before the call, so the model
 * hears "arguments/a must be number" from us instead of an opaque server error (or a server that
 * does something odd with a wrong type). Uses the SDK's own Ajv provider (`ajv` is the SDK's
 * dependency), made at the first check (load-sdk.ts), compiled once per schema. A schema Ajv
 * cannot compile is not the model's fault: the call then goes ahead unchecked and the server judges.
 */
import type { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType, JsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { loadMcpSdk } from "./load-sdk";

export type ArgumentCheck = { readonly ok: true } | { readonly ok: false; readonly problem: string };

export class ArgumentValidator {
  private provider: AjvJsonSchemaValidator | undefined;
  private readonly compiled = new WeakMap<object, JsonSchemaValidator<unknown> | null>();

  async check(schema: Readonly<Record<string, unknown>>, args: unknown): Promise<ArgumentCheck> {
    if (typeof args !== "object" || args === null || Array.isArray(args)) {
      return { ok: false, problem: "the arguments must be a JSON object" };
    }
    this.provider ??= new (await loadMcpSdk()).AjvJsonSchemaValidator();
    const validate = this.validatorFor(this.provider, schema);
    if (!validate) return { ok: true };
    const result = validate(args);
    if (result.valid) return { ok: true };
    return { ok: false, problem: result.errorMessage.replaceAll("data/", "arguments/").replace(/^data /, "arguments ") };
  }

  private validatorFor(provider: AjvJsonSchemaValidator, schema: Readonly<Record<string, unknown>>): JsonSchemaValidator<unknown> | null {
    let validate = this.compiled.get(schema);
    if (validate === undefined) {
      try {
        // $schema names a draft Ajv's default instance may not know; the keywords tools use are the same.
        const { $schema: _ignored, ...rest } = schema;
        validate = provider.getValidator(rest as JsonSchemaType);
      } catch {
        validate = null;
      }
      this.compiled.set(schema, validate);
    }
    return validate;
  }
}
