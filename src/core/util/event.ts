/**
 * Typed many-listener events, in the shape VS Code's own extensions use: an owner keeps an
 * `Emitter<T>` and exposes its `event`; each listener subscribes and gets a disposable that
 * unsubscribes. A listener that throws does not keep the others from hearing the event.
 */
import type { DisposableLike } from "./disposable";

export type Event<T> = (listener: (value: T) => void) => DisposableLike;

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = (error) => queueMicrotask(() => { throw error; })) {}

  readonly event: Event<T> = (listener) => {
    // A function subscribed twice hears the event twice, as with two separate subscriptions.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    return { dispose: () => this.listeners.delete(entry) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch (error) {
        this.onListenerError(error);
      }
    }
  }

  get hasListeners(): boolean {
    return this.listeners.size > 0;
  }

  dispose(): void {
    this.listeners.clear();
  }
}
