/**
 * The settings view's "Test connection": one tiny request with the settings as they are, and
 * what came of it in words. It stops reading at the first word of the answer, so it costs a
 * handful of tokens; whatever failed is the provider's own classified error (bad key, region
 * without the model, no credentials found), never a stack.
 */
import type { ApiHandler } from "../../api/types";
import { errorText } from "../util/error-text";

export interface ConnectionResult {
  readonly ok: boolean;
  readonly text: string;
}

const TIMEOUT_MS = 30_000;

export async function testConnection(handler: ApiHandler): Promise<ConnectionResult> {
  const { id } = handler.getModel();
  const timer = setTimeout(() => handler.abort(), TIMEOUT_MS);
  try {
    for await (const chunk of handler.createMessage("Answer with the single word OK.", [{ role: "user", content: "Connection test: answer OK." }])) {
      // The first sign of an answer proves the connection; the rest is not worth paying for.
      if (chunk.type === "text" || chunk.type === "reasoning" || chunk.type === "stop") break;
    }
    return { ok: true, text: `Connected: ${id} answered.` };
  } catch (error) {
    return { ok: false, text: errorText(error) };
  } finally {
    clearTimeout(timer);
    handler.abort();
  }
}
