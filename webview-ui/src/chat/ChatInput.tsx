import { useEffect, useRef, useState, type ClipboardEvent, type DragEvent, type KeyboardEvent, type RefObject } from "react";
import { useExtensionState } from "../use-extension-state";
import { AttachedImages } from "./AttachedImages";
import { imageFilesOf, MAX_IMAGES, readImageFiles } from "./read-images";
import { MentionHighlight, useHighlightScroll } from "./MentionHighlight";
import { MentionMenu } from "./MentionMenu";
import { useMentionMenu } from "./use-mention-menu";
import { SlashMenu } from "./SlashMenu";
import { useSlashMenu } from "./use-slash-menu";

interface ChatInputProps {
  draft: string;
  onDraftChange: (text: string) => void;
  images: readonly string[];
  onImagesChange: (update: (images: readonly string[]) => readonly string[]) => void;
  onSend: () => void;
  placeholder: string;
  /** Nothing can be typed (the interrupted task is being reopened). */
  disabled?: boolean;
}

/**
 * The message box: Enter sends, Shift+Enter breaks the line, images come in by paste or drop. A
 * plain textarea (styled as VS Code's input) because paste, drop and IME composition need the real
 * element, not one inside a shadow root. Typing `@` opens the mention menu (use-mention-menu.ts), a
 * leading `/` the slash command menu (use-slash-menu.ts). Mentions are marked by a layer behind
 * the textarea (MentionHighlight.tsx), so the textarea itself stays untouched.
 */
export function ChatInput({ draft, onDraftChange, images, onImagesChange, onSend, placeholder, disabled = false }: ChatInputProps) {
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [problems, setProblems] = useState<string[]>([]);
  useInputRequests(textarea, { draft, onDraftChange, onImagesChange });
  const mentions = useMentionMenu(textarea, draft, onDraftChange);
  const slash = useSlashMenu(textarea, draft, onDraftChange);
  const highlight = useHighlightScroll(textarea, draft);

  const addFiles = async (files: File[]) => {
    const result = await readImageFiles(files, MAX_IMAGES - images.length);
    if (result.images.length > 0) onImagesChange((current) => [...current, ...result.images].slice(0, MAX_IMAGES));
    setProblems(result.problems);
  };
  const onPaste = (event: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = imageFilesOf(event.clipboardData);
    if (files.length === 0) return;
    event.preventDefault();
    void addFiles(files);
  };
  const onDrop = (event: DragEvent<HTMLElement>) => {
    const files = imageFilesOf(event.dataTransfer);
    if (files.length === 0) return;
    event.preventDefault();
    void addFiles(files);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (slash.onKeyDown(event) || mentions.onKeyDown(event)) return event.preventDefault();
    if (event.key !== "Enter" || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    onSend();
  };

  return (
    <div className="chat-input" onDragOver={(event) => event.preventDefault()} onDrop={onDrop}>
      <AttachedImages images={images} onRemove={(index) => onImagesChange((current) => current.filter((_, i) => i !== index))} />
      {problems.length > 0 && (
        <div className="input-notice" role="status">
          {problems.map((problem, i) => (
            <div key={i}>{problem}</div>
          ))}
        </div>
      )}
      {slash.open && <SlashMenu items={slash.items} selected={slash.selected} onPick={slash.pick} onHover={slash.select} />}
      {mentions.open && <MentionMenu items={mentions.items} selected={mentions.selected} onPick={mentions.pick} onHover={mentions.select} />}
      <div className="chat-input-field">
        <MentionHighlight text={draft} layer={highlight.layer} />
        <textarea
          ref={textarea}
          className="chat-textarea"
          aria-label="Message"
          rows={Math.min(10, Math.max(2, draft.split("\n").length))}
          value={draft}
          placeholder={placeholder}
          disabled={disabled}
          onChange={(event) => {
            mentions.onCaret(event.target.selectionStart);
            slash.onCaret(event.target.selectionStart);
            onDraftChange(event.target.value);
          }}
          onSelect={(event) => {
            mentions.onCaret(event.currentTarget.selectionStart);
            slash.onCaret(event.currentTarget.selectionStart);
          }}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onScroll={highlight.onScroll}
        />
      </div>
    </div>
  );
}

/** "Focus the input" and "insert this" (the host's text, or an answer it handed back). */
function useInputRequests(
  element: RefObject<HTMLTextAreaElement | null>,
  { draft, onDraftChange, onImagesChange }: Pick<ChatInputProps, "draft" | "onDraftChange" | "onImagesChange">,
) {
  const request = useExtensionState((state) => state.inputRequest);
  const handled = useRef(0);
  useEffect(() => {
    if (!request || request.seq === handled.current) return;
    handled.current = request.seq;
    if (request.kind === "insert") {
      if (request.text) onDraftChange(draft ? `${draft}\n${request.text}` : request.text);
      if (request.images.length > 0) onImagesChange((current) => [...current, ...request.images].slice(0, MAX_IMAGES));
    }
    // After the key event that asked for it is over: Enter on an answer button moves the focus
    // during its keydown, and the textarea, focused at once, would take that Enter as a new line.
    setTimeout(() => element.current?.focus(), 0);
  }, [request, element, draft, onDraftChange, onImagesChange]);
}
