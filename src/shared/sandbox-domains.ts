/**
 * What an entry of the sandbox's domain allow list may look like, checked where it is typed (the
 * settings view) and where it is read (settings.json): a host pattern, never a URL.
 */

/** Why `text` is not a domain the allow list takes ("api.github.com", "*.example.com", "host:8443"), or undefined. */
export function domainProblem(text: string): string | undefined {
  if (text === "") return "an empty entry";
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text);
  if (scheme) return `"${text}" has a scheme: write the domain alone, "${text.slice(scheme[0].length).split("/")[0]}"`;
  if (/\s/.test(text)) return `"${text}" has a space: one domain per entry`;
  if (text.includes("/")) return `"${text}" has a path: write the domain alone, "${text.split("/")[0]}"`;
  return undefined;
}
