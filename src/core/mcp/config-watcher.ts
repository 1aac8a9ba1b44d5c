/**
 * Calls back (debounced) when a configuration file may have changed. It watches the folder, not
 * the file: editors and atomic writes replace the file by renaming, which ends a watch on the
 * file itself, and the file may not exist yet. A missing folder falls back to stat polling,
 * which also notices the folder appearing.
 */
import { existsSync, unwatchFile, watch, watchFile, type FSWatcher } from "node:fs";
import * as path from "node:path";
import type { DisposableLike } from "../util/disposable";

export type WatchFile = (file: string, onChange: () => void) => DisposableLike;

export function createDebouncedWatcher(debounceMs = 200): WatchFile {
  return (file, onChange) => {
    let timer: NodeJS.Timeout | undefined;
    const fire = () => {
      clearTimeout(timer);
      timer = setTimeout(onChange, debounceMs);
    };
    const folder = path.dirname(file);
    let watcher: FSWatcher | undefined;
    if (existsSync(folder)) {
      watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (name === null || name === path.basename(file)) fire();
      });
      // A deleted folder ends the watch; the file reads as missing, which the hub handles.
      watcher.on("error", fire);
    } else {
      watchFile(file, { persistent: false, interval: 1000 }, fire);
    }
    return {
      dispose() {
        clearTimeout(timer);
        if (watcher) watcher.close();
        else unwatchFile(file, fire);
      },
    };
  };
}
