import { useState } from "react";
import { Icon } from "../components/Icon";
import type { MessageQueue, QueuedMessage } from "./use-message-queue";

/** Messages waiting for the agent (or for an API key), each editable and removable until it goes out. */
export function QueuedMessages({ queue, waitingForKey }: { queue: MessageQueue; waitingForKey: boolean }) {
  if (queue.items.length === 0) return null;
  return (
    <div className="queued-messages" aria-label="Queued messages">
      <div className="queued-title">
        <Icon name={waitingForKey ? "key" : "clock"} />{" "}
        {waitingForKey ? "Waiting for an API key — starts as soon as one is saved" : "Queued — sent when Tandem next stops for input"}
      </div>
      {queue.items.map((item) => (
        <QueuedItem key={item.id} item={item} queue={queue} />
      ))}
    </div>
  );
}

function QueuedItem({ item, queue }: { item: QueuedMessage; queue: MessageQueue }) {
  const editing = queue.editingId === item.id;
  const [text, setText] = useState(item.text);
  if (editing) {
    return (
      <div className="queued-item editing" data-testid="queued-item">
        <textarea className="chat-textarea" aria-label="Edit queued message" value={text} onChange={(event) => setText(event.target.value)} />
        <div className="queued-actions">
          <button type="button" className="text-button" onClick={() => { queue.update(item.id, text); queue.setEditing(undefined); }}>Save</button>
          <button type="button" className="text-button" onClick={() => { setText(item.text); queue.setEditing(undefined); }}>Cancel</button>
        </div>
      </div>
    );
  }
  return (
    <div className="queued-item" data-testid="queued-item">
      <span className="queued-text">{item.text || `${item.images.length} image(s)`}</span>
      <button type="button" className="icon-button" aria-label="Edit queued message" onClick={() => { setText(item.text); queue.setEditing(item.id); }}>
        <Icon name="edit" />
      </button>
      <button type="button" className="icon-button" aria-label="Remove queued message" onClick={() => queue.remove(item.id)}>
        <Icon name="trash" />
      </button>
    </div>
  );
}
