import { useEffect, useState } from "react";

/**
 * When each countdown started, by key, so a row that the virtual list unmounts and mounts again
 * keeps counting from where it was instead of starting over.
 */
const startedAt = new Map<string, number>();

/** Whole seconds left of `seconds`, counted from the first time `key` was seen; ticks every second. */
export function useCountdown(key: string, seconds: number): number {
  if (!startedAt.has(key)) startedAt.set(key, Date.now());
  const start = startedAt.get(key) ?? Date.now();
  const remaining = () => Math.max(0, Math.ceil(seconds - (Date.now() - start) / 1000));
  const [left, setLeft] = useState(remaining);
  useEffect(() => {
    setLeft(remaining());
    if (remaining() <= 0) return;
    const timer = setInterval(() => {
      const now = remaining();
      setLeft(now);
      if (now <= 0) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
    // `remaining` is derived from key and seconds only.
  }, [key, seconds]);
  return left;
}
