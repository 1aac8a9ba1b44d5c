/**
 * The task's spending caps (`maxCostPerTask` in USD, `maxRequestsPerTask`): before a request, once
 * what the task spent reaches a cap, it stops to ask the person: continue with one more request,
 * raise the caps reached (doubled, for this task), or stop. Checked before every request, so a cap
 * is passed by at most the one request that crossed it. Unattended, the question is refused and the
 * task stops (the CLI exits 4). The totals grow with the rows added since the last check; a chat
 * rewritten under it (a restore) is summed again.
 */
import type { ChatMessage } from "../../../shared/messages";
import { addUsage, billedRequestCount, billedUsage, ZERO_USAGE, type UsageTotals } from "../../../shared/usage";
import type { RequestDraft, TaskParticipant } from "../../task/participant";
import { ended, type TaskEnded } from "../../task/round-outcome";
import type { TaskScope } from "../../task/task-scope";

interface Spent {
  readonly usage: UsageTotals;
  readonly requests: number;
}

export class SpendLimit implements TaskParticipant {
  readonly name = "spend-limit";
  /** What the chat billed up to `counted` messages; `last` is that message, to notice a rewrite. */
  private counted = 0;
  private last: ChatMessage | undefined;
  private spent: Spent = { usage: ZERO_USAGE, requests: 0 };
  /** This task's caps once the person raised them (the settings' until then). */
  private raised: { cost?: number; requests?: number } = {};
  /** "Continue once": the requests allowed before asking again. */
  private allowedRequests = 0;

  constructor(private readonly scope: TaskScope) {}

  async beforeRequest(_draft: RequestDraft): Promise<TaskEnded | undefined> {
    const spent = this.update(this.scope.messages.chatMessages);
    if (spent.requests < this.allowedRequests) return undefined;
    const caps = this.caps();
    const overCost = caps.cost > 0 && spent.usage.cost >= caps.cost;
    const overRequests = caps.requests > 0 && spent.requests >= caps.requests;
    if (!overCost && !overRequests) return undefined;
    const reached = [overCost ? `$${spent.usage.cost.toFixed(4)} of its $${caps.cost} cost cap` : "", overRequests ? `${spent.requests} of its ${caps.requests} requests` : ""].filter(Boolean).join(" and ");
    const answer = await this.scope.ask("spend_limit_reached", `The task has spent ${reached}. Continue with one more request, raise the cap (doubled, for this task), or stop.`);
    if (this.scope.state.abort) return ended("aborted");
    if (answer.type !== "yes") return ended("spend_limit");
    if (answer.choice === "raise") {
      this.raised = { ...(overCost ? { cost: caps.cost * 2 } : { cost: this.raised.cost }), ...(overRequests ? { requests: caps.requests * 2 } : { requests: this.raised.requests }) };
      const now = this.caps();
      await this.scope.say("info", `The caps for this task are now ${[now.cost > 0 ? `$${now.cost}` : "", now.requests > 0 ? `${now.requests} requests` : ""].filter(Boolean).join(" and ")}.`);
    } else {
      this.allowedRequests = spent.requests + 1;
    }
    return undefined;
  }

  private caps(): { cost: number; requests: number } {
    const settings = this.scope.settings();
    return { cost: this.raised.cost ?? settings.maxCostPerTask, requests: this.raised.requests ?? settings.maxRequestsPerTask };
  }

  /** The totals, from the messages added since the last call; all of them again if the chat was rewritten. */
  private update(chat: readonly ChatMessage[]): Spent {
    if (chat.length < this.counted || (this.counted > 0 && chat[this.counted - 1] !== this.last)) {
      this.counted = 0;
      this.spent = { usage: ZERO_USAGE, requests: 0 };
    }
    let { usage, requests } = this.spent;
    for (const message of chat.slice(this.counted)) {
      usage = addUsage(usage, billedUsage(message));
      requests += billedRequestCount(message);
    }
    this.counted = chat.length;
    this.last = chat.at(-1);
    this.spent = { usage, requests };
    return this.spent;
  }
}
