import { type KeyboardEvent, type ReactNode, useId, useRef } from 'react';

export interface TabItem<T extends string> {
  id: T;
  label: ReactNode;
}

export interface TabsProps<T extends string> {
  tabs: readonly TabItem<T>[];
  value: T;
  onChange: (id: T) => void;
  /** Accessible name of the tab list. */
  label: string;
  /** The selected tab's panel. */
  children?: ReactNode;
}

/**
 * WAI-ARIA tabs: one tab stop (the selected tab); Left/Right move and select, Home/End jump to the ends.
 * The panel is the children, labelled by the selected tab.
 */
export function Tabs<T extends string>({ tabs, value, onChange, label, children }: TabsProps<T>) {
  const base = useId();
  const refs = useRef(new Map<T, HTMLButtonElement>());
  const index = Math.max(
    0,
    tabs.findIndex((t) => t.id === value),
  );
  const move = (to: number) => {
    const tab = tabs[(to + tabs.length) % tabs.length];
    if (!tab) return;
    onChange(tab.id);
    refs.current.get(tab.id)?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    let to: number;
    switch (e.key) {
      case 'ArrowRight':
        to = index + 1;
        break;
      case 'ArrowLeft':
        to = index - 1;
        break;
      case 'Home':
        to = 0;
        break;
      case 'End':
        to = tabs.length - 1;
        break;
      default:
        return;
    }
    e.preventDefault();
    move(to);
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tabs__list" onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.id}
            ref={(el) => {
              if (el) refs.current.set(t.id, el);
              else refs.current.delete(t.id);
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${t.id}`}
            aria-selected={t.id === value}
            aria-controls={`${base}-panel`}
            tabIndex={t.id === value ? 0 : -1}
            className="tabs__tab"
            onClick={() => onChange(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {children !== undefined && (
        <div
          role="tabpanel"
          id={`${base}-panel`}
          aria-labelledby={`${base}-tab-${value}`}
          className="tabs__panel"
        >
          {children}
        </div>
      )}
    </div>
  );
}
