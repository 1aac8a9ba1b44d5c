import { usePanel } from "../state/panel-context";
import { useExtensionState } from "../use-extension-state";
import { Icon } from "./Icon";

const ICONS = { info: "info", warning: "warning", error: "error" } as const;

/**
 * The one notice area: the host's latest notice (restored, compared, a refusal, …), dismissible. A
 * newer notice takes its place rather than piling up, and a new task clears it (extension-store.ts).
 */
export function NoticeBanner() {
  const notice = useExtensionState((state) => state.notice);
  const { store } = usePanel();
  if (!notice) return null;
  return (
    <div className="notices">
      <div className={`notice notice-${notice.level}`} role={notice.level === "error" ? "alert" : "status"}>
        <Icon name={ICONS[notice.level]} />
        <span className="notice-text">{notice.text}</span>
        <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => store.dismissNotice(notice.id)}>
          <Icon name="close" />
        </button>
      </div>
    </div>
  );
}
