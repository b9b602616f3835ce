// A link to a URL from a file a clone ships: a link only when the URL is absolute http(s) (safe-url.ts).
import { safeHref } from './safe-url';

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
