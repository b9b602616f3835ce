// A URL from a file a clone ships (a campaign's `mr`, a board item's `url`) is hostile input: only an absolute
// http or https URL may become a link; anything else (`javascript:`, `data:`, a relative path) is shown as text.

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
