/**
 * The sandbox's place in the loop: when the work begins (a new task, or a saved one the person
 * goes on with), the walk of the workspace that finds what commands must not read starts, so it
 * runs while the model writes its first answer and that answer's command need not wait for it
 * (core/sandbox/workspace-scan.ts). First in the assembly: a TaskStart hook's command gains too.
 */
import type { TaskCommands } from "../../sandbox/task-commands";
import type { TaskParticipant } from "../../task/participant";

export class SandboxInLoop implements TaskParticipant {
  readonly name = "sandbox";

  constructor(private readonly commands: Pick<TaskCommands, "walkAhead">) {}

  beginning(): Promise<undefined> {
    this.commands.walkAhead();
    return Promise.resolve(undefined);
  }
}
