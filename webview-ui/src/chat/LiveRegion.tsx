import { useEffect, useState, useSyncExternalStore } from "react";
import { usePanel } from "../state/panel-context";
import { LiveAnnouncer, watchChat, type LiveState } from "./announcements";

/** The chat's announcer, fed from the store while the chat is shown (announcements.ts). */
export function useChatAnnouncements(): LiveState {
  const { store } = usePanel();
  const [announcer] = useState(() => new LiveAnnouncer());
  useEffect(() => {
    const stop = watchChat(store, announcer);
    return () => {
      stop();
      announcer.dispose();
    };
  }, [store, announcer]);
  return useSyncExternalStore(announcer.subscribe, announcer.getState);
}

/** Two visually hidden live regions: the model's finished messages (polite), questions and errors (assertive). */
export function LiveRegion({ state }: { state: LiveState }) {
  return (
    <div className="visually-hidden" data-testid="chat-announcements">
      <div role="status" aria-live="polite" aria-atomic="true">
        {state.polite}
      </div>
      <div role="alert" aria-live="assertive" aria-atomic="true">
        {state.assertive}
      </div>
    </div>
  );
}
