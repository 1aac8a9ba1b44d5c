/**
 * What the chat's controls do: sending (new task, reply, or queue), the answer buttons, and
 * delivering queued messages the moment the agent can take them. A task typed while no API key is
 * set waits in the queue too, and starts once a key is saved. What is being asked is the host's
 * word (`question`); the panel only remembers which question it has just answered, so its buttons
 * go at once instead of after the host's reply.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import type { OpenQuestion } from "../../../src/shared/protocol";
import { isString, isStringArray, usePersistedState } from "../state/use-persisted-state";
import { usePanel } from "../state/panel-context";
import { useExtensionState, usePost } from "../use-extension-state";
import { actionMessages, replyMessage, takesReply, type AskAction } from "./ask-buttons";
import { combineQueued, useMessageQueue, type MessageQueue } from "./use-message-queue";

export interface ChatController {
  readonly running: boolean;
  /** No task can start until a key is saved: a new task waits in the queue. */
  readonly waitingForKey: boolean;
  readonly hasTask: boolean;
  /** The task a window reload interrupted is being reopened: nothing is sent until it is back. */
  readonly restoring: boolean;
  /** The host's open question, unless this panel has answered it already. */
  readonly question: OpenQuestion | undefined;
  /** Typing answers the question (it takes a reply) instead of waiting in the queue. */
  readonly replying: boolean;
  readonly draft: string;
  setDraft(text: string): void;
  readonly images: readonly string[];
  updateImages(update: (images: readonly string[]) => readonly string[]): void;
  readonly queue: MessageQueue;
  send(): void;
  pressAskButton(action: AskAction): void;
  cancelTask(): void;
  clearTask(): void;
}

export function useChatController(): ChatController {
  const post = usePost();
  const { store } = usePanel();
  const hydrated = useExtensionState((state) => state.hydrated);
  const needsKey = useExtensionState((state) => state.settings?.needsApiKey === true);
  const running = useExtensionState((state) => state.running);
  const hasTask = useExtensionState((state) => state.task !== undefined);
  const restoring = useExtensionState((state) => state.restoring);
  const hostQuestion = useExtensionState((state) => state.question);
  const [answeredId, setAnsweredId] = useState<number | undefined>(undefined);
  const [draft, setDraft] = usePersistedState("draft", "", isString, 300);
  const [images, setImages] = usePersistedState<readonly string[]>("draftImages", [], isStringArray);
  const queue = useMessageQueue();
  const question = hostQuestion?.id === answeredId ? undefined : hostQuestion;
  const replyTo = takesReply(question) ? question : undefined;
  const waitingForKey = needsKey && !running;
  /** A task was held for a key: once it goes out, the person is brought back from the settings to see it. */
  const heldForKey = useRef(false);

  const clearInput = useCallback(() => {
    setDraft("");
    setImages([]);
  }, [setDraft, setImages]);

  const send = () => {
    const text = draft.trim();
    if (restoring || (!text && images.length === 0)) return;
    if (replyTo) {
      post(replyMessage(replyTo, { text, images }));
      setAnsweredId(replyTo.id);
    } else if (running) {
      queue.enqueue(text, images);
    } else if (waitingForKey) {
      queue.enqueue(text, images);
      heldForKey.current = true;
      store.setView("settings");
    } else {
      post({ type: "newTask", text, images: [...images] });
    }
    clearInput();
  };

  const pressAskButton = (action: AskAction) => {
    if (!question) return;
    const result = actionMessages(question, action, { text: draft, images });
    for (const message of result.messages) post(message);
    setAnsweredId(question.id);
    if (result.consumedInput) clearInput();
    // The pressed button goes with its question: the focus goes back to the input, not to the page.
    store.focusInput();
  };

  const onNewTask = useCallback(() => {
    if (!heldForKey.current) return;
    heldForKey.current = false;
    if (store.getState().view === "settings") store.setView("chat");
  }, [store]);
  useQueueDelivery(queue, { ready: hydrated && !restoring, running, waitingForKey, replyTo, onAnswered: setAnsweredId, onNewTask });

  return {
    running,
    waitingForKey,
    hasTask,
    restoring,
    question,
    replying: replyTo !== undefined,
    draft,
    setDraft,
    images,
    updateImages: setImages,
    queue,
    send,
    pressAskButton,
    cancelTask: () => {
      post({ type: "cancelTask" });
      store.focusInput();
    },
    clearTask: () => {
      post({ type: "clearTask" });
      store.focusInput();
    },
  };
}

interface DeliveryState {
  ready: boolean;
  running: boolean;
  waitingForKey: boolean;
  /** The open question, when it takes a reply. */
  replyTo: OpenQuestion | undefined;
  onAnswered: (questionId: number) => void;
  onNewTask: () => void;
}

/** Sends the queue as the reply to a question that opens, or as a new task once the task stops and a key is set. */
function useQueueDelivery(queue: MessageQueue, { ready, running, waitingForKey, replyTo, onAnswered, onNewTask }: DeliveryState): void {
  const post = usePost();
  // Effects may run twice for one state (React's strict mode); never send an item twice.
  const sent = useRef(new Set<string>());
  const { items, editingId, take } = queue;
  useEffect(() => {
    const pending = items.filter((item) => !sent.current.has(item.id));
    if (!ready || pending.length === 0 || editingId !== undefined) return;
    if (!replyTo && (running || waitingForKey)) return;
    const { text, images } = combineQueued(pending);
    if (replyTo) {
      post(replyMessage(replyTo, { text, images }));
      onAnswered(replyTo.id);
    } else {
      post({ type: "newTask", text, images });
      onNewTask();
    }
    const ids = new Set(pending.map((item) => item.id));
    for (const id of ids) sent.current.add(id);
    take(ids);
  }, [items, editingId, take, ready, running, waitingForKey, replyTo, onAnswered, onNewTask, post]);
}
