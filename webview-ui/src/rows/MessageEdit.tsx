import { useId, useRef, useState, type KeyboardEvent } from "react";
import type { ChatMessage } from "../../../src/shared/messages";
import { usePanel } from "../state/panel-context";
import { useCanRestore, useExtensionState, usePost } from "../use-extension-state";

const BUSY = "Tandem is working: edit once it asks you something or stops.";

/** Whether the host recorded where the conversation stood when the message was said (rows saved before that cannot be edited). */
export function isEditable(message: ChatMessage): boolean {
  return message.type === "say" && (message.say === "task" || (message.say === "user_feedback" && message.conversationAt !== undefined));
}

/**
 * Edit on one of the person's messages: the text (and its images, which can be removed) in a box,
 * and whether the files go back too. Sending takes the task back to where the message was said
 * and goes on from the new text; what it loses is named before it is sent. Enter sends,
 * Shift+Enter is a new line, Escape cancels and gives the focus back to Edit.
 */
export function MessageEdit({ message }: { message: ChatMessage }) {
  const post = usePost();
  const canEdit = useCanRestore();
  const [editing, setEditing] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const close = () => {
    setEditing(false);
    // After React has put the button back.
    queueMicrotask(() => editButton.current?.focus());
  };
  if (!editing) {
    return (
      <button ref={editButton} type="button" className="text-button message-edit-button" disabled={!canEdit} title={canEdit ? undefined : BUSY} onClick={() => setEditing(true)}>
        Edit
      </button>
    );
  }
  return (
    <MessageEditor
      message={message}
      canEdit={canEdit}
      onSend={(text, images, restoreFiles) => {
        post({ type: "editMessage", ts: message.ts, text, images, restoreFiles });
        setEditing(false);
      }}
      onCancel={close}
    />
  );
}

interface EditorProps {
  message: ChatMessage;
  canEdit: boolean;
  onSend: (text: string, images: string[], restoreFiles: boolean) => void;
  onCancel: () => void;
}

function MessageEditor({ message, canEdit, onSend, onCancel }: EditorProps) {
  const { store } = usePanel();
  // Re-read as rows arrive, so the count named is the one the edit removes; and whether the task has checkpoints.
  useExtensionState((state) => state.messageCount);
  const hasCheckpoints = store.messageAt(0)?.checkpoint !== undefined;
  const [text, setText] = useState(message.text ?? "");
  const [images, setImages] = useState<string[]>([...(message.images ?? [])]);
  const [restoreFiles, setRestoreFiles] = useState(hasCheckpoints);
  const warningId = useId();
  const later = store.messagesAfter(message.ts);
  const empty = !text.trim() && images.length === 0;
  const send = () => {
    if (!empty && canEdit) onSend(text, images, restoreFiles && hasCheckpoints);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape") {
      event.preventDefault();
      onCancel();
    } else if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  return (
    <div className="restore-panel restore-confirm message-editor" role="group" aria-label="Edit your message">
      <textarea className="message-edit-text" aria-label="Edited message" aria-describedby={warningId} autoFocus rows={Math.min(8, Math.max(2, text.split("\n").length))} value={text} onChange={(event) => setText(event.target.value)} onKeyDown={onKeyDown} />
      {images.length > 0 && (
        <ul className="message-edit-images" aria-label="Attached images">
          {images.map((src, i) => (
            <li key={`${i}-${src.length}`}>
              <img className="thumbnail" src={src} alt={`Attached image ${i + 1}`} />
              <button type="button" className="text-button" aria-label={`Remove image ${i + 1}`} onClick={() => setImages(images.filter((_, j) => j !== i))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {hasCheckpoints && (
        <label className="message-edit-files">
          <input type="checkbox" checked={restoreFiles} onChange={(event) => setRestoreFiles(event.target.checked)} /> Put the files back as they were at this message
        </label>
      )}
      <p id={warningId} className="restore-warning">
        {editWarning(later, restoreFiles && hasCheckpoints)}
      </p>
      {!canEdit && <p className="muted-text">{BUSY}</p>}
      <div className="restore-buttons">
        <button type="button" className="danger-button" disabled={!canEdit || empty} onClick={send}>
          Send edited message
        </button>
        <button type="button" className="secondary-button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** What sending the edit loses, in words. */
export function editWarning(laterMessages: number, restoreFiles: boolean): string {
  const chat = `The chat after this message (${laterMessages} ${laterMessages === 1 ? "message" : "messages"}) will be removed, and the task goes on from your edited message.`;
  return restoreFiles ? `${chat} Changes made to files since then will be lost.` : `${chat} The files stay as they are now.`;
}
