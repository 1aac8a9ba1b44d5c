/**
 * Runs a task's participants (participant.ts) at each moment, one after the other in the
 * assembly's order. Where a moment decides (stop the task, end the round, refuse or block a
 * call, shorten or not), the first participant that decides wins and the later ones are not
 * asked; where it builds (prompt sections, content, tools, specs, the person's words), each gets
 * what the ones before it made.
 */
import type { ToolSpec } from "../../api/types";
import type { AskMessage, AskResponse } from "../../shared/messages";
import type { AgentMode } from "../../shared/settings";
import { errorText } from "../util/error-text";
import type {
  ArrivedCall,
  CallRefusal,
  CallWatch,
  LentServices,
  PersonWords,
  PromptRequest,
  ShortenReason,
  StartingCall,
  TaskBeginning,
  TaskOpening,
  TaskParticipant,
} from "./participant";
import type { RequestDraft } from "./request-draft";
import type { TaskEnded, TaskOutcome } from "./round-outcome";
import type { ToolCall } from "./tool-call";
import type { AbortReason } from "./task-state";
import type { ToolSet } from "./tools/registry";

export class Participants {
  /** The extra parameters every tool call may carry. */
  readonly callParams: readonly string[];
  /** What the participants lend the tools, merged (declared once, so read once). */
  readonly lent: LentServices;

  constructor(readonly list: readonly TaskParticipant[] = []) {
    const names = new Set<string>();
    for (const { name } of list) {
      if (names.has(name)) throw new Error(`Two participants are named ${name}: each joins a task once.`);
      names.add(name);
    }
    this.callParams = list.flatMap((p) => p.callParams ?? []);
    this.lent = Object.assign({}, ...list.map((p) => p.lends ?? {})) as LentServices;
  }

  /** The participant of this class, for its owner's direct calls (the Controller's edit of the checklist). */
  find<T extends TaskParticipant>(kind: abstract new (...args: never[]) => T): T | undefined {
    return this.list.find((p): p is T => p instanceof kind);
  }

  async opened(opening: TaskOpening): Promise<void> {
    for (const p of this.list) await p.opened?.(opening);
  }

  /** Undefined to go on; otherwise why the task stops before its first request. */
  async beginning(start: TaskBeginning): Promise<string | undefined> {
    for (const p of this.list) {
      const stop = await p.beginning?.(start);
      if (stop !== undefined) return stop;
    }
    return undefined;
  }

  async personWords(text: string | undefined): Promise<PersonWords> {
    let words: PersonWords = { text, blocks: [] };
    for (const p of this.list) if (p.personWords) words = await p.personWords(words);
    return words;
  }

  /** Moments that must not wait: each participant in turn, a failure reported and the others still told. */
  questionShown(row: AskMessage, report: (error: unknown) => void): void {
    this.tellEach((p) => p.questionShown?.(row), report);
  }

  ended(outcome: TaskOutcome, report: (error: unknown) => void): void {
    this.tellEach((p) => p.ended?.(outcome), report);
  }

  private tellEach(tell: (p: TaskParticipant) => void, report: (error: unknown) => void): void {
    for (const p of this.list) {
      try {
        tell(p);
      } catch (error) {
        report(new Error(`${p.name} failed: ${errorText(error)}`));
      }
    }
  }

  /** True when a participant took or withheld the answer, so the question must be asked again. */
  async askAgain(answer: AskResponse): Promise<boolean> {
    for (const p of this.list) if ((await p.answerReceived?.(answer)) === "ask_again") return true;
    return false;
  }

  async beforeRequest(draft: RequestDraft): Promise<TaskEnded | undefined> {
    for (const p of this.list) {
      const ended = await p.beforeRequest?.(draft);
      if (ended) return ended;
    }
    return undefined;
  }

  async historyReady(): Promise<void> {
    for (const p of this.list) await p.historyReady?.();
  }

  async systemPrompt(request: PromptRequest): Promise<string[]> {
    const sections: string[] = [];
    for (const p of this.list) sections.push(...((await p.systemPrompt?.(request)) ?? []));
    return sections;
  }

  offeredTools(tools: ToolSet, mode: AgentMode): ToolSet {
    return this.list.reduce((offered, p) => p.offeredTools?.(offered, mode) ?? offered, tools);
  }

  toolSpecs(specs: readonly ToolSpec[]): readonly ToolSpec[] {
    return this.list.reduce((offered, p) => p.toolSpecs?.(offered) ?? offered, specs);
  }

  async overflowed(): Promise<boolean> {
    for (const p of this.list) if (await p.overflowed?.()) return true;
    return false;
  }

  async mayShorten(reason: ShortenReason, messages: number): Promise<boolean> {
    for (const p of this.list) if ((await p.mayShorten?.(reason, messages)) === false) return false;
    return true;
  }

  resolveCall(call: ToolCall): ToolCall {
    for (const p of this.list) {
      const resolved = p.resolveCall?.(call);
      if (resolved) return resolved;
    }
    return call;
  }

  async callArrived(arrived: ArrivedCall): Promise<CallRefusal | undefined> {
    for (const p of this.list) {
      const refusal = await p.callArrived?.(arrived);
      if (refusal) return refusal;
    }
    return undefined;
  }

  /** The watchers of a starting call; a block stops the chain (later participants never see the call). */
  async callStarting(call: StartingCall): Promise<CallWatch> {
    const watches: CallWatch[] = [];
    let blocked: CallWatch["blocked"];
    for (const p of this.list) {
      const watch = await p.callStarting?.(call);
      if (!watch) continue;
      watches.push(watch);
      if ((blocked = watch.blocked)) break;
    }
    return {
      ...(blocked ? { blocked } : {}),
      showRows: async () => {
        for (const w of watches) await w.showRows?.();
      },
      ended: async (outcome) => {
        for (const w of watches) await w.ended?.(outcome);
      },
    };
  }

  async callSettled(call: ToolCall): Promise<void> {
    for (const p of this.list) await p.callSettled?.(call);
  }

  async roundDone(round: number): Promise<void> {
    for (const p of this.list) await p.roundDone?.(round);
  }

  async taskCompleted(result: string): Promise<void> {
    for (const p of this.list) await p.taskCompleted?.(result);
  }

  async cancelled(reason: AbortReason, wasFinished: boolean): Promise<void> {
    for (const p of this.list) await p.cancelled?.({ reason, wasFinished });
  }

  /** Every participant is disposed, the last first, whatever the others do; failures are reported, never thrown. */
  async dispose(report: (error: unknown) => void): Promise<void> {
    for (const p of [...this.list].reverse()) {
      try {
        await p.dispose?.();
      } catch (error) {
        report(new Error(`${p.name} could not be released: ${errorText(error)}`));
      }
    }
  }
}
