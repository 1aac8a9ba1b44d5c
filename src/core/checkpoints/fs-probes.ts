/** Small questions the store asks the disk, where "not there" is an answer rather than an error. */
import { readdir, stat } from "node:fs/promises";

export async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** The names in a folder; none when the folder is missing. */
export async function namesIn(folder: string): Promise<string[]> {
  try {
    return await readdir(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
}
