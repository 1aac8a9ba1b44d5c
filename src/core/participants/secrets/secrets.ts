/**
 * Known secrets never reach the model: before each request, everything it carries (tool results,
 * command output, MCP results, errors, the environment details, the person's words) is scrubbed
 * of the values Tandem knows are secret and of common token shapes (core/secrets). The chat keeps
 * what the person saw; the history keeps what was sent. A marker stands for a value the model
 * never had, so a call that would write or run one is refused: it would put the marker where
 * the secret was.
 */
import { MARKER_START, SecretScrubber } from "../../secrets/secret-scrubber";
import type { KnownSecret } from "../../secrets/known-secrets";
import type { SecretFiles } from "../../secrets/secret-files";
import type { ArrivedCall, CallRefusal, RequestDraft, TaskParticipant } from "../../task/participant";
import type { TaskScope } from "../../task/task-scope";

export class SecretsKeptOut implements TaskParticipant {
  readonly name = "secrets";
  private requests = 0;

  constructor(
    private readonly scope: TaskScope,
    /** The environment's credentials and the API key, known when the task is made. */
    private readonly known: readonly KnownSecret[],
    private readonly files: SecretFiles,
  ) {}

  beginning(): Promise<undefined> {
    this.files.start();
    return Promise.resolve(undefined);
  }

  async beforeRequest(draft: RequestDraft): Promise<undefined> {
    // Reads of secret files the person allowed are theirs to give; shapes and their own credentials still go.
    const fromFiles = this.scope.settings().allowSecretFiles ? [] : await this.files.values(this.requests++ > 0);
    const scrubber = new SecretScrubber([...this.known, ...fromFiles]);
    const removed = new Set<string>();
    draft.rewriteText((text) => {
      const scrubbed = scrubber.scrub(text);
      for (const source of scrubbed.removed) removed.add(source);
      return scrubbed.text;
    });
    if (removed.size > 0) await this.scope.say("info", `Kept from the model: ${[...removed].join(", ")}. It reads a marker in their place.`);
    return undefined;
  }

  /** Only calls that write or run: a question or a summary may well name what was kept out. */
  callArrived({ call, tool }: ArrivedCall): CallRefusal | undefined {
    if (call.partial || !tool) return undefined;
    const written = tool.readOnly ? [call.params.command ?? ""] : Object.values(call.params);
    if (!written.some((value) => value.includes(MARKER_START))) return undefined;
    return {
      kind: "mistake",
      text:
        `Your ${call.name} call contains "${MARKER_START}…]", which stands for a secret Tandem kept from you: ` +
        "writing or running it would put the marker where the secret is. Leave the lines that hold one as they are " +
        "(replace_in_file can change the others), and never copy a marker into a file or a command.",
    };
  }
}
