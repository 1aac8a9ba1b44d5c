/**
 * One task's model client per mode: Act requests go to the configured model, Plan requests to the
 * planModeModelId model when one is set (same provider and key). That client is made on the first
 * Plan request and kept for the task, as the Act one is.
 */
import { ApiError, isApiError } from "../../api/errors";
import type { ApiHandler, ApiMessage, ApiStream, ModelInfo, ToolSpec } from "../../api/types";
import { errorText } from "../util/error-text";
import type { AgentMode } from "../participants/mode/mode";

/** Builds the Plan-mode client, or undefined when Plan mode uses the Act model. */
export type PlanHandlerFactory = () => ApiHandler | Promise<ApiHandler> | undefined;

export class ModeApiHandler implements ApiHandler {
  private plan: ApiHandler | undefined;

  constructor(
    private readonly act: ApiHandler,
    private readonly mode: () => AgentMode,
    private readonly createPlan: PlanHandlerFactory,
  ) {}

  async *createMessage(systemPrompt: string, messages: readonly ApiMessage[], tools?: readonly ToolSpec[]): ApiStream {
    const handler = this.mode() === "plan" ? await this.planHandler() : this.act;
    yield* handler.createMessage(systemPrompt, messages, tools);
  }

  getModel(): { id: string; info: ModelInfo } {
    return (this.mode() === "plan" ? this.plan : undefined)?.getModel() ?? this.act.getModel();
  }

  get writesPromptCache(): boolean | undefined {
    return ((this.mode() === "plan" ? this.plan : undefined) ?? this.act).writesPromptCache;
  }

  abort(): void {
    this.act.abort();
    this.plan?.abort();
  }

  /** A Plan model that cannot be used (an unknown id) fails the request with why: the person is asked, not retried blindly. */
  private async planHandler(): Promise<ApiHandler> {
    if (this.plan) return this.plan;
    try {
      const made = await this.createPlan();
      if (!made) return this.act;
      this.plan = made;
      return made;
    } catch (error) {
      if (isApiError(error)) throw error;
      throw new ApiError("bad_request", `The Plan mode model (planModeModelId) cannot be used: ${errorText(error)}`, { cause: error });
    }
  }
}
