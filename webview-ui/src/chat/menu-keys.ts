/**
 * The keys both input menus (the @ and the / menu) take from the textarea: Escape closes, Up and
 * Down move (wrapping), Enter (without Shift) or Tab picks. Anything else stays with the textarea.
 */
import type { KeyboardEvent } from "react";

export type MenuKey = { readonly kind: "close" } | { readonly kind: "move"; readonly index: number } | { readonly kind: "pick" };

/** What `event` does to a menu showing `count` items with `index` selected; none: not the menu's key. */
export function menuKeyOf(event: KeyboardEvent<HTMLTextAreaElement>, index: number, count: number): MenuKey | undefined {
  if (event.nativeEvent.isComposing) return undefined;
  if (event.key === "Escape") return { kind: "close" };
  if (count === 0) return undefined;
  if (event.key === "ArrowDown" || event.key === "ArrowUp") return { kind: "move", index: (index + (event.key === "ArrowDown" ? 1 : -1) + count) % count };
  if ((event.key === "Enter" && !event.shiftKey) || event.key === "Tab") return { kind: "pick" };
  return undefined;
}
