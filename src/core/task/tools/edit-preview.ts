/**
 * The editor's diff view for write_to_file and replace_in_file, when the host has one
 * (`ctx.host.diffView`): opened once per call while the model streams, updated as it streams,
 * then saved on approval or reverted on rejection, cancellation or error.
 *
 * Previews are kept per task (keyed by its abort signal) and per file. Tools run one at a time,
 * so a preview of another file is left over from a call that never ran (e.g. it lacked a
 * parameter): it is reverted before a new one opens. Cancelling the task reverts them all.
 */
import type { DiffSession } from "../../../host/bridge";
import { assertStillLandsAt, type ResolvedToolPath } from "./paths";
import type { ApprovalDecision, ApprovalRequest, ToolContext } from "./types";
import { errorText } from "../../util/error-text";

interface Preview {
  /** The file's text before the edit (undefined: a new file), read once per call. */
  original: string | undefined;
  /** Undefined until there is something to show. */
  session: Promise<DiffSession> | undefined;
  /** Opening failed while streaming: no more tries until execute, which reports the error. */
  failed: boolean;
}

const previewsByTask = new WeakMap<AbortSignal, Map<string, Preview>>();

function previewsOf(ctx: ToolContext): Map<string, Preview> {
  let previews = previewsByTask.get(ctx.signal);
  if (!previews) {
    const created = new Map<string, Preview>();
    previews = created;
    previewsByTask.set(ctx.signal, created);
    const { host } = ctx;
    ctx.signal.addEventListener("abort", () => void discard(created, undefined, host), { once: true });
  }
  return previews;
}

/**
 * Reverts every preview except the one of `keep`. A failure is the person's to know (a file may
 * hold an edit nobody approved), not the current tool call's: it goes to a notification.
 */
async function discard(previews: Map<string, Preview>, keep: string | undefined, host: ToolContext["host"]): Promise<void> {
  const stale = [...previews.entries()].filter(([path]) => path !== keep);
  for (const [path] of stale) previews.delete(path);
  await Promise.all(
    stale.map(async ([path, preview]) => {
      try {
        await (await preview.session)?.revert();
      } catch (error) {
        host.window.notify("error", `Could not undo the proposed edit of ${path}: ${errorText(error)}`);
      }
    }),
  );
}

/**
 * Shows a streamed proposal. `propose` turns the original into the text to show so far, or
 * undefined when there is nothing to show yet (the view then stays closed).
 * Never throws: a preview that fails to open is retried, and reported, by execute.
 */
export async function previewPartialEdit(
  ctx: ToolContext,
  absolutePath: string,
  readOriginal: () => Promise<string | undefined>,
  propose: (original: string | undefined) => string | undefined,
): Promise<void> {
  const diffView = ctx.host.diffView;
  if (!diffView || ctx.signal.aborted) return;
  const previews = previewsOf(ctx);
  let preview = previews.get(absolutePath);
  try {
    await discard(previews, absolutePath, ctx.host);
    if (!preview) {
      preview = { original: undefined, session: undefined, failed: false };
      previews.set(absolutePath, preview);
      preview.original = await readOriginal();
    }
    if (preview.failed) return;
    const proposed = propose(preview.original);
    if (proposed === undefined) return;
    preview.session ??= diffView.open(absolutePath, preview.original);
    await (await preview.session).update(proposed, false);
  } catch {
    // Deliberately not reported here (this runs for every streamed chunk): execute opens the
    // view again and reports the error to the person and the model if it fails again.
    if (preview) {
      preview.failed = true;
      preview.session = undefined;
    }
  }
}

/** A call that will never run (it was cut off): its preview, and any other left open, is reverted. */
export async function abandonPreviews(ctx: ToolContext): Promise<void> {
  const previews = previewsByTask.get(ctx.signal);
  if (previews) await discard(previews, undefined, ctx.host);
}

/**
 * What the file held before this call's preview opened, when one is open: `{ original }`, with
 * undefined for a new file. The disk cannot tell any more: the diff view may have created a new
 * file empty to show it. Undefined when no preview is open (read the disk then).
 */
export function originalBeforePreview(ctx: ToolContext, absolutePath: string): { readonly original: string | undefined } | undefined {
  const preview = previewsByTask.get(ctx.signal)?.get(absolutePath);
  return preview?.session && !preview.failed ? { original: preview.original } : undefined;
}

export type ReviewedEdit =
  | { readonly approved: false; readonly feedback: ApprovalDecision["feedback"] }
  | {
      readonly approved: true;
      readonly feedback: ApprovalDecision["feedback"];
      readonly saved: Awaited<ReturnType<DiffSession["save"]>>;
    };

/**
 * Shows the final proposal in the diff view, asks for approval, then saves it through the editor
 * or reverts it. The view is always closed afterwards. The view shows and saves the real path
 * (links followed), the one the checks judged; a link changed while the person decided stops it.
 */
export async function reviewEditInDiffView(
  ctx: ToolContext,
  target: ResolvedToolPath,
  original: string | undefined,
  proposed: string,
  request: ApprovalRequest,
): Promise<ReviewedEdit> {
  const diffView = ctx.host.diffView;
  if (!diffView) throw new Error("reviewEditInDiffView needs a host with a diff view.");
  const absolutePath = target.real;
  const previews = previewsOf(ctx);
  await discard(previews, absolutePath, ctx.host);
  const preview = previews.get(absolutePath);
  previews.delete(absolutePath);
  // A preview that failed, or never opened, opens now (and a failure is reported this time).
  const session = await ((!preview?.failed && preview?.session) || diffView.open(absolutePath, original));
  try {
    await session.update(proposed, true);
    const decision = await ctx.requestApproval(request);
    if (!decision.approved || ctx.signal.aborted) {
      await session.revert();
      ctx.signal.throwIfAborted();
      return { approved: false, feedback: decision.feedback };
    }
    assertStillLandsAt(target);
    return { approved: true, feedback: decision.feedback, saved: await session.save() };
  } catch (error) {
    await revertAfter(session, error);
    throw error;
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

