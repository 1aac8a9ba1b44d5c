import { usePanel } from "../state/panel-context";
import { useExtensionState } from "../use-extension-state";
import { Icon } from "./Icon";

const ICONS = { info: "info", warning: "warning", error: "error" } as const;

/** Notices from the host that belong to no task, each dismissible. */
export function NoticeBanner() {
  const notices = useExtensionState((state) => state.notices);
  const { store } = usePanel();
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((notice) => (
        <div key={notice.id} className={`notice notice-${notice.level}`} role={notice.level === "error" ? "alert" : "status"}>
          <Icon name={ICONS[notice.level]} />
          <span className="notice-text">{notice.text}</span>
          <button type="button" className="icon-button" aria-label="Dismiss" onClick={() => store.dismissNotice(notice.id)}>
            <Icon name="close" />
          </button>
        </div>
      ))}
    </div>
  );
}
