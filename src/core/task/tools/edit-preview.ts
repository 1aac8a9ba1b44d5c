/**
 * The editor's diff view for write_to_file and replace_in_file, when the host has one
 * (`ctx.host.diffView`): opened once per call while the model streams, updated as it streams,
 * then saved on approval or reverted on rejection, cancellation or error.
 *
 * The task owns one EditPreviews (through its ToolExecutor) and disposes it when it ends; previews
 * are kept per file. Tools run one at a time, so a preview of another file is left over from a
 * call that never ran (e.g. it lacked a parameter): it is reverted before a new one opens.
 */
import type { DiffSession, DiffViewHost } from "../../../host/bridge";
import { assertStillLandsAt, type ResolvedToolPath } from "../../files/paths";
import { errorText } from "../../util/error-text";

interface Preview {
  /** The file's text before the edit (undefined: a new file), read once per call. */
  original: string | undefined;
  /** Undefined until there is something to show. */
  session: Promise<DiffSession> | undefined;
  /** Opening failed while streaming: no more tries until the call runs, which reports the error. */
  failed: boolean;
}

/** What the editor saved: the text, the person's changes to the proposal, new problems. */
export type SavedEdit = Awaited<ReturnType<DiffSession["save"]>>;

/** The final proposal, open in the diff view while the person decides. */
export interface EditReview {
  /** Saves it through the editor, unless the path now lands elsewhere (then it is reverted and this throws). */
  save(): Promise<SavedEdit>;
  revert(): Promise<void>;
}

export class EditPreviews {
  private readonly previews = new Map<string, Preview>();
  private disposed = false;

  /** `report`: a failure to revert is the person's to know (a file may hold an edit nobody approved). */
  constructor(private readonly report: (message: string) => void) {}

  /**
   * Shows a streamed proposal. `propose` turns the original into the text to show so far, or
   * undefined when there is nothing to show yet (the view then stays closed).
   * Never throws: a preview that fails to open is retried, and reported, by `review`.
   */
  async showPartial(
    diffView: DiffViewHost | undefined,
    absolutePath: string,
    readOriginal: () => Promise<string | undefined>,
    propose: (original: string | undefined) => string | undefined,
  ): Promise<void> {
    if (!diffView || this.disposed) return;
    let preview = this.previews.get(absolutePath);
    try {
      await this.discard(absolutePath);
      if (!preview) {
        preview = { original: undefined, session: undefined, failed: false };
        this.previews.set(absolutePath, preview);
        preview.original = await readOriginal();
      }
      if (preview.failed) return;
      const proposed = propose(preview.original);
      if (proposed === undefined) return;
      preview.session ??= diffView.open(absolutePath, preview.original);
      await (await preview.session).update(proposed, false);
    } catch {
      // Deliberately not reported here (this runs for every streamed chunk): `review` opens the
      // view again and reports the error to the person and the model if it fails again.
      if (preview) {
        preview.failed = true;
        preview.session = undefined;
      }
    }
  }

  /** A call that will never run (it was cut off): its preview, and any other left open, is reverted. */
  abandon(): Promise<void> {
    return this.discard(undefined);
  }

  /**
   * What the file held before this call's preview opened, when one is open: `{ original }`, with
   * undefined for a new file. The disk cannot tell any more: the diff view may have created a new
   * file empty to show it. Undefined when no preview is open (read the disk then).
   */
  originalBefore(absolutePath: string): { readonly original: string | undefined } | undefined {
    const preview = this.previews.get(absolutePath);
    return preview?.session && !preview.failed ? { original: preview.original } : undefined;
  }

  /**
   * Shows the final proposal in the diff view, for the person to decide on; the review then saves
   * or reverts it. The view shows and saves the real path (links followed), the one the checks
   * judged; a link changed while the person decided stops the save.
   */
  async review(diffView: DiffViewHost, target: ResolvedToolPath, original: string | undefined, proposed: string): Promise<EditReview> {
    const absolutePath = target.real;
    await this.discard(absolutePath);
    const preview = this.previews.get(absolutePath);
    this.previews.delete(absolutePath);
    // A preview that failed, or never opened, opens now (and a failure is reported this time).
    const session = await ((!preview?.failed && preview?.session) || diffView.open(absolutePath, original));
    try {
      await session.update(proposed, true);
    } catch (error) {
      await revertAfter(session, error);
      throw error;
    }
    return {
      save: async () => {
        try {
          assertStillLandsAt(target);
          return await session.save();
        } catch (error) {
          await revertAfter(session, error);
          throw error;
        }
      },
      revert: () => session.revert(),
    };
  }

  /** The task is over: every preview is reverted, and none opens any more. Never rejects. */
  dispose(): Promise<void> {
    this.disposed = true;
    return this.discard(undefined);
  }

  /** Reverts every preview except the one of `keep`; failures go to `report`, not to the current call. */
  private async discard(keep: string | undefined): Promise<void> {
    const stale = [...this.previews.entries()].filter(([path]) => path !== keep);
    for (const [path] of stale) this.previews.delete(path);
    await Promise.all(
      stale.map(async ([path, preview]) => {
        try {
          await (await preview.session)?.revert();
        } catch (error) {
          this.report(`Could not undo the proposed edit of ${path}: ${errorText(error)}`);
        }
      }),
    );
  }
}

/** Restores the file after a failure; if that fails too, both failures are reported. */
async function revertAfter(session: DiffSession, cause: unknown): Promise<void> {
  try {
    await session.revert();
  } catch (revertError) {
    throw new AggregateError([cause, revertError], `${errorText(cause)} Restoring the file afterwards failed too: ${errorText(revertError)}`);
  }
}

/** What the model is told after an edit saved through the diff view, beyond "it was saved". */
export function describeSavedEdit(relative: string, saved: { personEdits?: string; newProblems: readonly string[] }): string {
  const parts: string[] = [];
  if (saved.personEdits) {
    parts.push(
      `The person edited your proposal in the diff view before saving it (or the editor reformatted it on save). ` +
        `Their changes, as a unified diff from your proposal to the file as saved:\n<person_edits>\n${saved.personEdits}</person_edits>\n` +
        `${relative} now holds the saved version: base any further edit on it, and keep the person's changes.`,
    );
  }
  if (saved.newProblems.length > 0) {
    parts.push(
      `The editor now reports new problems in ${relative}:\n${saved.newProblems.map((p) => `- ${p}`).join("\n")}\n` +
        "If your edit caused them, fix them.",
    );
  }
  return parts.join("\n\n");
}

