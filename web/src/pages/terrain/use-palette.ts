// The terrain palette for the view's resolved background: follows the shell's theme toggle (<html data-theme>)
// and the system's prefers-color-scheme, since WebGL colours cannot read CSS variables.
import { type RefObject, useEffect, useState } from 'react';
import { LIGHT, type Palette, paletteFor, parseCssColor } from './palette';

export function usePalette(ref: RefObject<HTMLElement | null>): Palette {
  const [palette, setPalette] = useState<Palette>(LIGHT);
  useEffect(() => {
    const read = () => {
      const el = ref.current;
      if (!el) return;
      const bg = parseCssColor(getComputedStyle(el).backgroundColor);
      setPalette((old) => {
        const next = paletteFor(bg);
        return old.background === next.background && old.dark === next.dark ? old : next;
      });
    };
    read();
    const media = matchMedia('(prefers-color-scheme: dark)');
    const observer = new MutationObserver(read);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    media.addEventListener('change', read);
    return () => {
      observer.disconnect();
      media.removeEventListener('change', read);
    };
  }, [ref]);
  return palette;
}
