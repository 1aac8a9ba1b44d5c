import type { ImageBlock } from "../../api/types";

const DATA_URL = /^data:(image\/[\w.+-]+);base64,(.*)$/s;

/** Attached images travel as data URLs in the chat and as base64 blocks to the model. */
export function imageBlockFromDataUrl(dataUrl: string): ImageBlock {
  const match = DATA_URL.exec(dataUrl);
  if (!match?.[1] || match[2] === undefined) {
    throw new Error(`Not a base64 image data URL: ${dataUrl.slice(0, 40)}…`);
  }
  return { type: "image", mediaType: match[1], data: match[2] };
}
