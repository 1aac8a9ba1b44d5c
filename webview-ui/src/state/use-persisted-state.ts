/**
 * useState that survives the webview being hidden and shown again (VS Code discards the page but
 * keeps what `setState` saved), so a draft or a queued message is never lost.
 */
import { useEffect, useState, type Dispatch, type SetStateAction } from "react";
import type { VsCodeApi } from "../vscode-api";
import { usePanel } from "./panel-context";

function savedState(api: VsCodeApi): Record<string, unknown> {
  const state = api.getState();
  return typeof state === "object" && state !== null ? (state as Record<string, unknown>) : {};
}

/**
 * `debounceMs` batches frequent changes (typing): VS Code serializes the whole saved state on every
 * `setState`, and that state may hold queued images.
 */
export function usePersistedState<T>(
  key: string,
  fallback: T,
  isValid: (value: unknown) => value is T,
  debounceMs = 0,
): [T, Dispatch<SetStateAction<T>>] {
  const { api } = usePanel();
  const [value, setValue] = useState<T>(() => {
    const saved = savedState(api)[key];
    return saved !== undefined && isValid(saved) ? saved : fallback;
  });
  useEffect(() => {
    const save = () => api.setState({ ...savedState(api), [key]: value });
    if (debounceMs <= 0) {
      save();
      return;
    }
    const timer = setTimeout(save, debounceMs);
    return () => clearTimeout(timer);
  }, [api, key, value, debounceMs]);
  return [value, setValue];
}

export const isString = (value: unknown): value is string => typeof value === "string";

export const isStringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === "string");
