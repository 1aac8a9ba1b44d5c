/**
 * The CLI's side of a notification (the core decides when, and its words): the terminal's bell and
 * the --notify command. A question counts only once it is put to the person at this terminal
 * (unattended, or answered by the run itself, nobody waits for it); a task's end always counts.
 * The core's notice and the answerer's prompt come in either order: each question is joined once.
 */
import type { Notice } from "../shared/notice";

export interface TerminalAttentionDeps {
  /** Rings the bell; none when stderr is not a terminal. */
  readonly bell?: () => void;
  /** Runs the --notify command; none without the flag. */
  readonly command?: (notice: Notice) => void;
}

export class TerminalAttention {
  /** Questions the core announced that are not (yet) put to the person. */
  private readonly announced = new Map<number, Notice>();
  /** Questions put to the person before (or without) their notice. */
  private readonly asked = new Set<number>();

  constructor(private readonly deps: TerminalAttentionDeps) {}

  /** The core's notification (Controller.onDidNeedAttention). */
  notice(notice: Notice): void {
    const id = notice.questionId;
    if (notice.event !== "question" || id === undefined) return this.alert(notice);
    if (this.asked.delete(id)) return this.alert(notice);
    this.announced.set(id, notice);
  }

  /** The answerer puts question `id` to the person at the terminal. */
  asking(id: number): void {
    const notice = this.announced.get(id);
    if (!notice) return void this.asked.add(id);
    this.announced.delete(id);
    this.alert(notice);
  }

  private alert(notice: Notice): void {
    this.deps.bell?.();
    this.deps.command?.(notice);
  }
}
