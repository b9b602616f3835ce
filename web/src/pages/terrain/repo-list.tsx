// The keyboard way to the tiles: a filterable listbox of every repository (virtualised: 5,000 options render a
// screenful), one tab stop; arrows, Home/End and Page keys move, Enter or Space selects (the card opens and the
// camera pans to the tile). Also what a browser without WebGL uses.
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from 'react';
import type { TerrainNode } from '../../api/terrain';

export interface RepoListProps {
  nodes: readonly TerrainNode[];
  selected: number | null;
  onSelect(index: number): void;
}

const ROW = 30;

function stateOf(n: TerrainNode): string {
  if (n.local_status !== 'synced') return n.local_status === 'configured_missing' ? 'missing' : 'outside';
  return n.visual.state === 'manifest' ? 'present' : n.visual.state.replaceAll('_', ' ');
}

export function RepoList({ nodes, selected, onSelect }: RepoListProps) {
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const scroller = useRef<HTMLDivElement>(null);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    const all = nodes.map((_, i) => i);
    return q ? all.filter((i) => nodes[i]!.repo_id.toLowerCase().includes(q)) : all;
  }, [nodes, filter]);
  const v = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW,
    overscan: 8,
  });

  // Follow the selection made elsewhere (a click on a tile, arrow keys in the view).
  useEffect(() => {
    if (selected === null) return;
    const at = shown.indexOf(selected);
    if (at >= 0) {
      setActive(at);
      v.scrollToIndex(at, { align: 'auto' });
    }
  }, [selected, shown, v]);

  const move = (to: number) => {
    const k = Math.max(0, Math.min(shown.length - 1, to));
    setActive(k);
    v.scrollToIndex(k, { align: 'auto' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const page = Math.max(1, Math.floor((scroller.current?.clientHeight ?? ROW * 10) / ROW) - 1);
    const pick = () => {
      const i = shown[active];
      if (i !== undefined) onSelect(i);
    };
    switch (e.key) {
      case 'ArrowDown':
        move(active + 1);
        break;
      case 'ArrowUp':
        move(active - 1);
        break;
      case 'PageDown':
        move(active + page);
        break;
      case 'PageUp':
        move(active - page);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(shown.length - 1);
        break;
      case 'Enter':
      case ' ':
        pick();
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const activeIndex = shown[active];
  return (
    <div className="terrain-list">
      <label className="terrain-list__filter">
        <span>Find a repository</span>
        <input
          type="search"
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value);
            setActive(0);
          }}
          placeholder="project/repo"
        />
      </label>
      <div
        ref={scroller}
        className="terrain-list__box"
        role="listbox"
        tabIndex={0}
        aria-label="Repositories on the terrain"
        aria-activedescendant={activeIndex !== undefined ? `terrain-opt-${activeIndex}` : undefined}
        onKeyDown={onKeyDown}
      >
        <div style={{ height: v.getTotalSize(), position: 'relative' }}>
          {v.getVirtualItems().map((item) => {
            const i = shown[item.index]!;
            const n = nodes[i]!;
            return (
              // biome-ignore lint/a11y/useFocusableInteractive: the listbox holds focus (aria-activedescendant).
              // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the listbox, not each option.
              <div
                key={n.id}
                id={`terrain-opt-${i}`}
                role="option"
                aria-selected={i === selected}
                className={`terrain-list__opt${item.index === active ? ' is-active' : ''}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW }}
                onClick={() => {
                  setActive(item.index);
                  onSelect(i);
                }}
              >
                <span className="terrain-list__name">{n.repo_id}</span>
                <span className="terrain-list__state">{stateOf(n)}</span>
              </div>
            );
          })}
        </div>
      </div>
      <p className="muted terrain-list__count">
        {shown.length === nodes.length
          ? `${nodes.length} repositories`
          : `${shown.length} of ${nodes.length}`}
      </p>
    </div>
  );
}
