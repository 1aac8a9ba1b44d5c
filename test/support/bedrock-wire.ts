/**
 * Claude on AWS Bedrock, as bedrock-runtime answers InvokeModelWithResponseStream
 * (POST /model/{modelId}/invoke-with-response-stream, the model id percent-encoded in the path
 * and the Anthropic body without `model` or `stream`): the Anthropic Messages events of the
 * Anthropic wire, each base64 in the `bytes` of one AWS event-stream `chunk` frame; errors in the
 * stream are `exception` frames, and errors before it JSON `{"message"}` bodies named by the
 * `x-amzn-errortype` header. @smithy/eventstream-codec only encodes the frames here; the SDK
 * under test decodes them with its own stack.
 */
import { randomUUID } from "node:crypto";
import type { ServerResponse } from "node:http";
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { writeAnswerEvents, writeFaultEvents, type AnthropicEvent, type AnthropicEventSink } from "./anthropic-wire.js";
import type { FaultTurn, ScriptTurn } from "./script.js";
import type { HttpFault, StreamFault, Wire } from "./wire.js";
import { isStreamFault } from "./wire.js";
import { StreamSink, randomId, sendJson } from "./wire-stream.js";

/** Bedrock's streaming route; a VPC endpoint or proxy may put a prefix before it. */
const STREAM_PATH = /(?:^|\/)model\/[^/]+\/invoke-with-response-stream$/;

/** The exception (the x-amzn-errortype name), status and wording bedrock-runtime answers a fault with. */
export interface BedrockErrorSpec {
  readonly status: number;
  readonly exception: string;
  readonly message: string;
}

/**
 * Real wordings. A throttled request gets no retry-after header from Bedrock, whatever the script
 * says; a refused credential is a 403 (Bedrock never answers 401).
 */
export const BEDROCK_FAULTS: Readonly<Record<HttpFault, BedrockErrorSpec>> = {
  rate_limit: { status: 429, exception: "ThrottlingException", message: "Too many requests, please wait before trying again." },
  server_error: {
    status: 500,
    exception: "InternalServerException",
    message: "The system encountered an unexpected error during processing. Try your request again.",
  },
  overloaded: { status: 503, exception: "ServiceUnavailableException", message: "Bedrock is unable to process your request." },
  auth: { status: 403, exception: "UnrecognizedClientException", message: "The security token included in the request is invalid." },
  bad_request: {
    status: 400,
    exception: "ValidationException",
    message: "Malformed input request: #: required key [messages] not found, please reformat your input and try again.",
  },
  // What Claude on Bedrock says when the prompt does not fit (no token counts, unlike Anthropic's).
  context_window_exceeded: { status: 400, exception: "ValidationException", message: "Input is too long for requested model." },
};

/** The mid-stream fault: what Bedrock sends when capacity runs out after the stream started. */
const MID_STREAM_EXCEPTION = { type: "serviceUnavailableException", message: "Bedrock is unable to process your request." };

const utf8Decoder = new TextDecoder();
const utf8Encoder = new TextEncoder();
const codec = new EventStreamCodec(
  (bytes) => utf8Decoder.decode(bytes),
  (text) => utf8Encoder.encode(text),
);

function stringHeader(value: string) {
  return { type: "string" as const, value };
}

/** One `chunk` frame carrying one Anthropic event, with the random padding `p` Bedrock adds to hide lengths. */
export function chunkFrame(event: AnthropicEvent): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(event), "utf8").toString("base64");
  const payload = JSON.stringify({ bytes, p: randomId("", 1 + (bytes.length % 23)) });
  return codec.encode({
    headers: {
      ":event-type": stringHeader("chunk"),
      ":content-type": stringHeader("application/json"),
      ":message-type": stringHeader("event"),
    },
    body: utf8Encoder.encode(payload),
  });
}

/** One `exception` frame; `type` is camel-cased as on the wire ("throttlingException"). */
export function exceptionFrame(type: string, message: string): Uint8Array {
  return codec.encode({
    headers: {
      ":exception-type": stringHeader(type),
      ":content-type": stringHeader("application/json"),
      ":message-type": stringHeader("exception"),
    },
    body: utf8Encoder.encode(JSON.stringify({ message })),
  });
}

/** AWS request ids are UUIDs; the `req_` prefix is the scripted server's mark, which the wire suite checks. */
function bedrockRequestId(): string {
  return `req_${randomUUID()}`;
}

/** An error before the stream, as bedrock-runtime sends it. */
export function sendBedrockError(res: ServerResponse, spec: BedrockErrorSpec, body: Record<string, unknown> = { message: spec.message }): void {
  const namespace = spec.status === 403 ? "com.amazon.coral.service" : "com.amazon.bedrock";
  sendJson(res, spec.status, body, {
    "x-amzn-requestid": bedrockRequestId(),
    "x-amzn-errortype": `${spec.exception}:http://internal.amazon.com/coral/${namespace}/`,
  });
}

/**
 * Frames events on an open response. Bedrock adds its invocation metrics to the message_stop
 * event, so the counts seen on the way are kept for it.
 */
export class EventStreamSink implements AnthropicEventSink {
  private readonly sink: StreamSink;
  private readonly started = Date.now();
  private firstByteLatency: number | undefined;
  private readonly counts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };

  constructor(private readonly res: ServerResponse) {
    this.sink = new StreamSink(res);
  }

  get alive(): boolean {
    return this.sink.alive;
  }

  /** Status 200 and Bedrock's headers, sent at once. */
  open(): void {
    this.sink.open("application/vnd.amazon.eventstream", {
      "x-amzn-requestid": bedrockRequestId(),
      "x-amzn-bedrock-content-type": "application/json",
    });
  }

  send(event: AnthropicEvent): void {
    this.count(event);
    this.write(chunkFrame(event.type === "message_stop" ? { ...event, "amazon-bedrock-invocationMetrics": this.metrics() } : event));
  }

  exception(type: string, message: string): void {
    this.write(exceptionFrame(type, message));
  }

  pause(ms: number): Promise<void> {
    return this.sink.pause(ms);
  }

  end(): void {
    this.sink.end();
  }

  destroy(): void {
    this.sink.destroy();
  }

  /** Raw bytes, for frames split or cut on purpose. */
  write(bytes: Uint8Array): void {
    if (!this.sink.alive) return;
    this.firstByteLatency ??= Date.now() - this.started;
    this.res.write(bytes);
  }

  private count(event: AnthropicEvent): void {
    const usage = (event.type === "message_start" ? (event.message as { usage?: unknown } | undefined)?.usage : event.usage) as
      | Record<string, unknown>
      | undefined;
    if (!usage) return;
    const number = (key: string, fallback: number) => (typeof usage[key] === "number" ? usage[key] : fallback);
    this.counts.input = number("input_tokens", this.counts.input);
    this.counts.output = number("output_tokens", this.counts.output);
    this.counts.cacheRead = number("cache_read_input_tokens", this.counts.cacheRead);
    this.counts.cacheWrite = number("cache_creation_input_tokens", this.counts.cacheWrite);
  }

  private metrics(): Record<string, number> {
    return {
      inputTokenCount: this.counts.input,
      outputTokenCount: this.counts.output,
      invocationLatency: Date.now() - this.started,
      firstByteLatency: this.firstByteLatency ?? 0,
      cacheReadInputTokenCount: this.counts.cacheRead,
      cacheWriteInputTokenCount: this.counts.cacheWrite,
    };
  }
}

async function streamFault(frames: EventStreamSink, turn: FaultTurn & { fault: StreamFault }, body: Record<string, unknown>, requestNumber: number): Promise<void> {
  frames.open();
  await writeFaultEvents(frames, turn, { body, requestNumber });
  switch (turn.fault) {
    case "empty":
    case "truncated":
      // Truncated: the frames so far are whole, but message_stop never comes.
      frames.end();
      return;
    case "error_mid_stream":
      frames.exception(MID_STREAM_EXCEPTION.type, MID_STREAM_EXCEPTION.message);
      frames.end();
      return;
    case "drop_connection":
      frames.destroy();
      return;
    case "stall":
      // Nothing more, ever: the socket stays open until the client gives up or the server closes.
      return;
  }
}

export const bedrockWire: Wire = {
  protocol: "bedrock",
  matches: (path) => STREAM_PATH.test(path),
  async respond(res: ServerResponse, turn: ScriptTurn, { body, requestNumber }): Promise<void> {
    if (turn.kind === "fault") {
      if (isStreamFault(turn.fault)) return streamFault(new EventStreamSink(res), { ...turn, fault: turn.fault }, body, requestNumber);
      return sendBedrockError(res, BEDROCK_FAULTS[turn.fault]);
    }
    const frames = new EventStreamSink(res);
    frames.open();
    await writeAnswerEvents(frames, turn, { body, requestNumber });
    frames.end();
  },
  sendError(res: ServerResponse, status: number, message: string): void {
    const exception = status >= 500 ? "InternalServerException" : "ValidationException";
    sendBedrockError(res, { status, exception, message });
  },
};
