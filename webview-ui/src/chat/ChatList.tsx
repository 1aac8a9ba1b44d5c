import { useCallback, useRef, useState } from "react";
import { Virtuoso, type VirtuosoHandle } from "react-virtuoso";
import { Icon } from "../components/Icon";
import { MessageRow } from "../rows/MessageRow";
import { usePanel } from "../state/panel-context";
import { useExtensionState } from "../use-extension-state";

const SCROLL_UP_KEYS = new Set(["PageUp", "ArrowUp", "Home"]);

/**
 * The messages, virtualized. It follows new output until the person scrolls up, and follows again
 * once they are back at the bottom. It is the chat's log for assistive technology, busy while a
 * response streams; what is new is announced by the chat's live region (LiveRegion.tsx), not by
 * the list, whose rows come and go as it scrolls.
 */
export function ChatList({ busy }: { busy: boolean }) {
  const { store } = usePanel();
  const count = useExtensionState((state) => state.messageCount);
  const listVersion = useExtensionState((state) => state.listVersion);
  const virtuoso = useRef<VirtuosoHandle>(null);
  const follow = useRef(true);
  const [atBottom, setAtBottom] = useState(true);

  // New identities when messages are added or removed, so Virtuoso re-reads the shifted rows;
  // an update to one message does not change them (its row re-renders by itself).
  const itemContent = useCallback(
    (index: number) => {
      const message = store.messageAt(index);
      return message ? <MessageRow ts={message.ts} /> : null;
    },
    [store, listVersion],
  );
  const computeItemKey = useCallback((index: number) => store.messageAt(index)?.ts ?? `missing-${index}`, [store, listVersion]);

  const scrollToBottom = () => {
    follow.current = true;
    virtuoso.current?.scrollToIndex({ index: "LAST", align: "end", behavior: "auto" });
  };

  return (
    <div
      className="chat-list"
      onWheel={(event) => {
        if (event.deltaY < 0) follow.current = false;
      }}
      onKeyDown={(event) => {
        if (SCROLL_UP_KEYS.has(event.key)) follow.current = false;
      }}
    >
      <Virtuoso
        ref={virtuoso}
        className="chat-scroller"
        role="log"
        aria-label="Messages"
        aria-live="off"
        aria-busy={busy}
        totalCount={count}
        itemContent={itemContent}
        computeItemKey={computeItemKey}
        initialTopMostItemIndex={count > 0 ? count - 1 : 0}
        followOutput={() => (follow.current ? "auto" : false)}
        atBottomThreshold={24}
        atBottomStateChange={(bottom) => {
          setAtBottom(bottom);
          if (bottom) follow.current = true;
        }}
        totalListHeightChanged={() => {
          // A streaming row grows without the count changing; keep its end in view.
          if (follow.current) virtuoso.current?.scrollToIndex({ index: "LAST", align: "end", behavior: "auto" });
        }}
        increaseViewportBy={{ top: 600, bottom: 600 }}
      />
      {!atBottom && count > 0 && (
        <button type="button" className="scroll-to-bottom icon-button" aria-label="Scroll to the newest message" onClick={scrollToBottom}>
          <Icon name="arrow-down" />
        </button>
      )}
    </div>
  );
}
