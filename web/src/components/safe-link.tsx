// A URL from a file a clone ships (a campaign's `mr`, a board item's `url`) is hostile input: only an absolute
// http or https URL becomes a link; anything else (`javascript:`, `data:`, a relative path) is shown as text.

/** The URL as a link target when it is absolute http(s), else undefined. */
export function safeHref(url: string | null | undefined): string | undefined {
  if (!url) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : undefined;
}

/** A link opened in a new tab (no opener, no referrer), or the text itself when the URL is not http(s). */
export function SafeLink({ url, label }: { url: string; label?: string }) {
  const href = safeHref(url);
  const text = label ?? url;
  if (!href)
    return (
      <code className="unsafe-url" title="Not an http(s) link: shown as text">
        {text}
      </code>
    );
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" title={url}>
      {text}
    </a>
  );
}
