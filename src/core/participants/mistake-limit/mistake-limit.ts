/**
 * The mistake limit (the seed's): before a request, once the model made `mistakeLimit` mistakes
 * in a row (the executor counts them; a correct call resets the count), YOLO ends the task,
 * nobody being there to guide it; otherwise the person decides: stop, or go on with their
 * guidance, which joins the request.
 */
import { formatResponse } from "../../prompts/responses";
import type { RequestDraft, TaskParticipant } from "../../task/participant";
import { ended, type TaskEnded } from "../../task/round-outcome";
import type { TaskScope } from "../../task/task-scope";
import { imageBlockFromDataUrl } from "../../util/image-block";

export class MistakeLimit implements TaskParticipant {
  readonly name = "mistake-limit";

  constructor(private readonly scope: TaskScope) {}

  async beforeRequest(draft: RequestDraft): Promise<TaskEnded | undefined> {
    const { scope } = this;
    const { state } = scope;
    const mistakes = state.consecutiveMistakeCount;
    if (mistakes < scope.settings().mistakeLimit) return undefined;
    const text = `The model made ${mistakes} mistakes in a row.`;
    if (scope.settings().yolo) {
      await scope.say("error", `${text} YOLO mode ends the task here instead of burning more tokens.`);
      return ended("mistake_limit");
    }
    const answer = await scope.ask("mistake_limit_reached", `${text} You can guide it, or stop.`);
    if (state.abort) return ended("aborted");
    if (answer.type === "no") return ended("mistake_limit");
    await scope.withStateLock(() => (state.consecutiveMistakeCount = 0));
    if (answer.text) await scope.say("user_feedback", answer.text, { images: answer.images });
    draft.add(formatResponse.tooManyMistakes(await scope.forModel(answer.text)));
    for (const image of answer.images ?? []) draft.add(imageBlockFromDataUrl(image));
    return undefined;
  }
}
