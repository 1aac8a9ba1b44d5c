/**
 * HTML to readable Markdown: Readability picks the main content out of a linkedom document (no
 * navigation, footers or scripts), Turndown writes it as Markdown. A page where Readability finds
 * nothing is converted whole. The libraries load on first use, not with the extension.
 */

/** A response as text for the model: what any kind of content becomes (web-fetch-content.ts). */
export interface ReadableContent {
  readonly title?: string;
  readonly text: string;
  /** Something the model should know about how the text was made. */
  readonly note?: string;
}

/** Tags whose content is never text a reader sees. */
const INVISIBLE = ["script", "style", "noscript", "template", "iframe", "object", "embed", "svg", "canvas", "head"] as const;

export async function htmlToMarkdown(html: string, pageUrl: URL): Promise<ReadableContent> {
  const { parseHTML, Readability, TurndownService } = await import("./web-page-libraries");
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-", emDelimiter: "*" });
  turndown.remove([...INVISIBLE]);

  // Readability rewrites the document it reads, so the whole-page fallback parses afresh.
  const load = () => {
    const { document } = parseHTML(html);
    absolutizeLinks(document, pageUrl);
    return document;
  };
  const document = load();
  const pageTitle = document.title?.trim() || undefined;
  const article = new Readability(document).parse();
  if (article?.content && article.textContent?.trim()) {
    const markdown = tidy(turndown.turndown(article.content));
    if (markdown) return { title: article.title?.trim() || pageTitle, text: markdown };
  }
  const body = load().body as { innerHTML?: string } | null;
  return {
    title: pageTitle,
    text: tidy(turndown.turndown(body?.innerHTML ?? "")),
    note: "No main article was found, so the whole page is shown.",
  };
}

interface LinkedElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
}

/** Relative links would mean nothing to the model once the page is gone; make them absolute. */
function absolutizeLinks(document: { querySelector(s: string): unknown; querySelectorAll(s: string): Iterable<unknown> }, pageUrl: URL): void {
  const baseHref = (document.querySelector("base[href]") as LinkedElement | null)?.getAttribute("href");
  const base = resolve(baseHref ?? "", pageUrl) ?? pageUrl.href;
  for (const [selector, attribute] of [["a[href]", "href"], ["img[src]", "src"]] as const) {
    for (const element of document.querySelectorAll(selector) as Iterable<LinkedElement>) {
      const absolute = resolve(element.getAttribute(attribute) ?? "", new URL(base));
      if (absolute !== undefined) element.setAttribute(attribute, absolute);
    }
  }
}

function resolve(href: string, base: URL): string | undefined {
  if (!href.trim()) return undefined;
  try {
    return new URL(href, base).href;
  } catch {
    return undefined;
  }
}

/** Turndown leaves runs of blank lines where removed blocks were. */
function tidy(markdown: string): string {
  return markdown
    .replace(/[ \t]+$/gm, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
