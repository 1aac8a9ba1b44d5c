export { HOOK_POINTS, type HookPoint, type HookPointData } from "./hook-points";
export { WorkspaceHooks, type HooksOptions } from "./workspace-hooks";
export { describeHookRun, TaskHooks } from "./task-hooks";
export { trustHooksAsFound, type HookTrustRequest, type TrustWorkspaceHooks } from "./trust";
