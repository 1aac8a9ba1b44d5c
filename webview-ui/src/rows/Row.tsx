import type { ReactNode } from "react";
import type { ChatMessage } from "../../../src/shared/messages";
import { Icon } from "../components/Icon";

export type RowTone = "plain" | "success" | "warning" | "error" | "muted" | "user";

/** "say:text", "ask:tool", …: tests and styles find rows by it. */
export function rowKind(message: ChatMessage): string {
  return message.type === "ask" ? `ask:${message.ask}` : `say:${message.say}`;
}

interface RowProps {
  message: ChatMessage;
  icon?: string;
  spin?: boolean;
  title?: ReactNode;
  tone?: RowTone;
  children?: ReactNode;
  /** Below the body, outside its frame (a user row's box): e.g. the task's checkpoint line. */
  footer?: ReactNode;
}

/** The frame every chat row shares: an optional icon-and-title header and a body. */
export function Row({ message, icon, spin = false, title, tone = "plain", children, footer }: RowProps) {
  return (
    <div className={`row tone-${tone}`} data-row={rowKind(message)}>
      {title !== undefined && (
        <div className="row-header">
          {icon && <Icon name={icon} spin={spin} />}
          <span className="row-title">{title}</span>
        </div>
      )}
      {children !== undefined && children !== null && <div className="row-body">{children}</div>}
      {footer}
    </div>
  );
}
