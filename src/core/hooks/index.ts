export { HOOK_POINTS, type HookPoint, type HookPointData } from "./hook-points";
export { HooksInLoop, type ToolGate, type ToolHooks } from "./in-loop";
export { WorkspaceHooks, type HooksOptions } from "./workspace-hooks";
export { describeHookRun } from "./task-hooks";
export type { HookTrustRequest, TrustWorkspaceHooks } from "./trust";
