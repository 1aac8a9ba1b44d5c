import type { ImageBlock } from "../../api/types";

/** An image the person attached (a data URL) as a block for the model. */
export function imageBlockFromDataUrl(dataUrl: string): ImageBlock {
  const match = /^data:([^;]+);base64,(.*)$/s.exec(dataUrl);
  return { type: "image", mediaType: match?.[1] ?? "image/png", data: match?.[2] ?? dataUrl };
}
