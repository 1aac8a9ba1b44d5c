/**
 * Closes the diff views an earlier extension host left open. A window reload or a crash ends a
 * host in the middle of an approval; VS Code then restores the diff tab, whose proposal this host
 * does not hold (and, with hot exit, may restore its unsaved text). The real file was never
 * touched (proposal-files.ts), so closing those tabs is the whole clean-up; the task, when
 * resumed, proposes its edit again.
 */
import * as vscode from "vscode";
import { closeProposal } from "./diff-session";
import { errorText } from "../../core/util/error-text";
import { diffSidesWithScheme } from "./diff-files";
import { PROPOSAL_SCHEME, type ProposalFileSystem } from "./proposal-files";

/** Never throws: a tab that will not close is logged and left to the person. */
export async function closeLeftoverProposals(proposals: ProposalFileSystem, log: vscode.LogOutputChannel): Promise<void> {
  for (const proposal of diffSidesWithScheme(PROPOSAL_SCHEME).filter((uri) => !proposals.isOwn(uri))) {
    try {
      // Loading it brings back unsaved text from a hot-exit backup, which must be saved (into
      // memory) for the tab to close without asking; with no backup there is nothing to load.
      await vscode.workspace.openTextDocument(proposal).then(undefined, () => undefined);
      await closeProposal(proposal, log);
      log.info(`Closed the proposal of ${proposal.path} left open when the previous window closed.`);
    } catch (error) {
      log.warn(`Could not close the proposal of ${proposal.path} left open when the previous window closed: ${errorText(error)}`);
    } finally {
      proposals.remove(proposal);
    }
  }
}
