import { VscodeButton } from "../components/vscode-elements";
import { AskButtons } from "./AskButtons";
import { AutoApproveBar } from "./AutoApproveBar";
import { ChatInput } from "./ChatInput";
import { ChatList } from "./ChatList";
import { FocusChain } from "./FocusChain";
import { LiveRegion, useChatAnnouncements } from "./LiveRegion";
import { ModeSwitch } from "./ModeSwitch";
import { QueuedMessages } from "./QueuedMessages";
import { TaskHeader } from "./TaskHeader";
import { useChatController, type ChatController } from "./use-chat-controller";
import { Restoring, Welcome } from "./Welcome";

function placeholder(chat: ChatController): string {
  if (chat.restoring) return "Restoring the interrupted task…";
  if (chat.replying) return "Type a reply… (Enter to send, Shift+Enter for a new line)";
  if (chat.running) return "Tandem is working. Type a message to queue it…";
  return "Type your task here… (Enter to send, Shift+Enter for a new line)";
}

/** The task has finished and waits for a reply or a new task: nothing is left to cancel. */
function waitingAfterCompletion(chat: ChatController): boolean {
  return chat.question?.kind === "completion_result";
}

/** The chat: task header, messages, the open question's buttons, queued messages and the input. */
export function ChatView() {
  const chat = useChatController();
  const live = useChatAnnouncements();
  const canSend = !chat.restoring && (chat.draft.trim().length > 0 || chat.images.length > 0);
  return (
    <div className="chat-view">
      {chat.restoring ? <Restoring /> : chat.hasTask ? <TaskHeader onClose={chat.clearTask} /> : <Welcome />}
      {chat.hasTask && <FocusChain />}
      <ChatList busy={live.busy} />
      <LiveRegion state={live} />
      {chat.question && <AskButtons question={chat.question} onPress={chat.pressAskButton} />}
      <QueuedMessages queue={chat.queue} waitingForKey={chat.waitingForKey} />
      <ChatInput
        draft={chat.draft}
        onDraftChange={chat.setDraft}
        images={chat.images}
        onImagesChange={chat.updateImages}
        onSend={chat.send}
        placeholder={placeholder(chat)}
        disabled={chat.restoring}
      />
      <div className="input-toolbar">
        <ModeSwitch />
        {chat.running && !waitingAfterCompletion(chat) && (
          <VscodeButton secondary onClick={chat.cancelTask}>
            Cancel
          </VscodeButton>
        )}
        <VscodeButton disabled={!canSend} onClick={() => canSend && chat.send()}>
          Send
        </VscodeButton>
      </div>
      <AutoApproveBar />
    </div>
  );
}
