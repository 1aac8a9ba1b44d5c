/**
 * Keeps a server's last progress notification. The SDK's Protocol (1.32) handles a response at
 * once but a notification one microtask later, so when both arrive in one read — a tool that
 * reports progress right before returning — the response retires the call's progress handler
 * first and the last progress is dropped (typescript-sdk #2580, fixed upstream only in 2.x).
 * Delivering responses, and the close that may follow them, one microtask late puts them behind
 * the notifications that came first. Applied before `connect`, which installs the handlers.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** A response (result or error), told from a request or notification by shape: the transports have already checked the message is JSON-RPC. */
const isResponse = (message: JSONRPCMessage): boolean => !("method" in message) && ("result" in message || "error" in message);

export function deliverResponsesAfterNotifications<T extends Transport>(transport: T): T {
  let onmessage: Transport["onmessage"];
  let onclose: Transport["onclose"];
  Object.defineProperty(transport, "onmessage", {
    configurable: true,
    get: () => onmessage,
    set: (handler: Transport["onmessage"]) => {
      onmessage = handler
        ? (message: JSONRPCMessage, extra?: Parameters<NonNullable<Transport["onmessage"]>>[1]) => {
            if (isResponse(message)) queueMicrotask(() => handler(message, extra));
            else handler(message, extra);
          }
        : undefined;
    },
  });
  Object.defineProperty(transport, "onclose", {
    configurable: true,
    get: () => onclose,
    set: (handler: Transport["onclose"]) => {
      onclose = handler ? () => queueMicrotask(handler) : undefined;
    },
  });
  return transport;
}
