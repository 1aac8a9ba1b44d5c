import type { AgentSettings } from "../../shared/settings";
import type { ApprovalRequest } from "./tools/types";

/**
 * Whether a tool may run without asking. YOLO approves everything; otherwise each category
 * has its own switch, and a path outside the workspace needs the matching "externally" switch.
 * Commands are approved only by "execute all commands" until the command policy decides which
 * are safe.
 */
export function isAutoApproved(request: ApprovalRequest, settings: AgentSettings, outsideWorkspace: boolean): boolean {
  if (settings.yolo) return true;
  const auto = settings.autoApproval;
  switch (request.category) {
    case "none":
      return true;
    case "read":
      return auto.readFiles && (!outsideWorkspace || auto.readFilesExternally);
    case "edit":
      return auto.editFiles && (!outsideWorkspace || auto.editFilesExternally);
    case "command":
      return auto.executeAllCommands;
    case "browser":
      return auto.useBrowser;
    case "mcp":
      return auto.useMcp;
  }
}
