import type { ContentBlock } from "../../api/types";
import type { AskKind, AskResponse, SayKind } from "../../shared/messages";
import type { AgentSettings } from "../../shared/settings";
import { formatResponse } from "../prompts/responses";
import type { SayExtra } from "./chat-channel";
import { imageBlockFromDataUrl } from "../util/image-block";
import { ended, type RoundOutcome } from "./round-outcome";
import type { TaskState } from "./task-state";

export interface MistakeLimitDeps {
  readonly state: TaskState;
  settings(): AgentSettings;
  ask(kind: AskKind, text: string): Promise<AskResponse>;
  say(kind: SayKind, text?: string, extra?: SayExtra): Promise<unknown>;
  withStateLock<T>(fn: () => T): Promise<T>;
  /** The person's guidance followed by what its @-mentions stand for. */
  withMentions(text: string | undefined): Promise<string | undefined>;
}

/**
 * Before a request, at the mistake limit: YOLO ends the task (nobody is there to guide it);
 * otherwise the person decides: stop, or go on with their guidance, which joins the request.
 * Returns how the round ends, what to add to its request, or nothing below the limit.
 */
export async function checkMistakeLimit(deps: MistakeLimitDeps): Promise<RoundOutcome | ContentBlock[] | undefined> {
  const { state } = deps;
  const limit = deps.settings().mistakeLimit;
  if (state.consecutiveMistakeCount < limit) return undefined;
  const text = `The model made ${state.consecutiveMistakeCount} mistakes in a row.`;
  if (deps.settings().yolo) {
    await deps.say("error", `${text} YOLO mode ends the task here instead of burning more tokens.`);
    return ended("mistake_limit");
  }
  const answer = await deps.ask("mistake_limit_reached", `${text} You can guide it, or stop.`);
  if (state.abort) return ended("aborted");
  if (answer.type === "no") return ended("mistake_limit");
  await deps.withStateLock(() => (state.consecutiveMistakeCount = 0));
  if (answer.text) await deps.say("user_feedback", answer.text, { images: answer.images });
  return [{ type: "text", text: formatResponse.tooManyMistakes(await deps.withMentions(answer.text)) }, ...(answer.images ?? []).map(imageBlockFromDataUrl)];
}
