export { applyModelRequest, evaluateCommand } from "./evaluate-command";
export { DEFAULT_ALLOW_LIST, DEFAULT_COMMAND_POLICY, type CommandDecision, type CommandPolicy } from "./command-policy";
export { parseShell, type ParseResult } from "./parse-shell";
