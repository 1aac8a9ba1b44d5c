/** Turns pasted or dropped files into data URLs, within the attachment limits. */

export const MAX_IMAGES = 20;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

export interface ImageReadResult {
  readonly images: string[];
  /** Why files were left out, one line each, for a notice. */
  readonly problems: string[];
}

function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => (typeof reader.result === "string" ? resolve(reader.result) : reject(new Error(`${file.name} could not be read as a data URL`)));
    reader.onerror = () => reject(reader.error ?? new Error(`${file.name} could not be read`));
    reader.readAsDataURL(file);
  });
}

/** Reads up to `room` acceptable images from `files`; says why any other file was skipped. */
export async function readImageFiles(files: readonly File[], room: number): Promise<ImageReadResult> {
  const images: string[] = [];
  const problems: string[] = [];
  let overLimit = 0;
  for (const file of files) {
    const name = file.name || "The image";
    if (!IMAGE_TYPES.has(file.type)) problems.push(`${name} is not a PNG, JPEG, GIF or WebP image.`);
    else if (file.size > MAX_IMAGE_BYTES) problems.push(`${name} is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
    else if (images.length >= room) overLimit++;
    else {
      try {
        images.push(await readAsDataUrl(file));
      } catch (error) {
        problems.push(error instanceof Error ? error.message : `${name} could not be read.`);
      }
    }
  }
  if (overLimit > 0) problems.push(`At most ${MAX_IMAGES} images can be attached; ${overLimit} left out.`);
  return { images, problems };
}

/** Image files in a paste or drop (clipboards sometimes list them only as items). */
export function imageFilesOf(data: DataTransfer | null): File[] {
  if (!data) return [];
  const files = Array.from(data.files ?? []);
  if (files.length > 0) return files;
  return Array.from(data.items ?? [])
    .filter((item) => item.kind === "file")
    .map((item) => item.getAsFile())
    .filter((file): file is File => file !== null);
}
