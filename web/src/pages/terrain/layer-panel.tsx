// The layer switches: one native checkbox per layer (keyboard and screen readers for free), with a legend of
// the colours it uses in the current theme.

import { LAYERS, type LayerId, type LayerState } from './layers';
import type { Palette } from './palette';
import { cssHex } from './palette';

function legend(id: LayerId, p: Palette): Array<[string, number]> {
  switch (id) {
    case 'synced':
      return [
        ['checked out', p.tile.synced],
        ['not read yet', p.tile.unknown],
        ['missing', p.tile.missing],
      ];
    case 'bulge':
      return [
        ['little', p.bulge.low],
        ['much', p.bulge.high],
      ];
    case 'depression':
      return [
        ['behind', p.pool.behind],
        ['far behind', p.pool.heavy],
      ];
    case 'branch':
      return Object.entries(p.branch);
    case 'cracks':
      return [['conflicts', p.crack]];
    case 'ci':
      return [
        ['declared + found', p.ci.both],
        ['no file', p.ci.declared],
        ['mismatch', p.ci.mismatch],
        ['undeclared', p.ci.detected],
        ['not checked', p.ci.unchecked],
      ];
    case 'pulse':
      return [['commits', p.pulse]];
    case 'arcs':
      return [
        ['healthy', p.arc.healthy],
        ['outdated', p.arc.outdated],
        ['broken', p.arc.broken],
      ];
    case 'ownership':
      return p.owners.slice(0, 4).map((c, i) => [`owner ${i + 1}`, c]);
    case 'agent':
      return [
        ['ready', p.agent.ready],
        ['partial', p.agent.partial],
      ];
  }
}

export function LayerPanel({
  layers,
  onChange,
  palette,
}: {
  layers: LayerState;
  onChange(next: LayerState): void;
  palette: Palette;
}) {
  const all = LAYERS.every((l) => layers[l.id]);
  return (
    <fieldset className="terrain-layers">
      <legend>Layers</legend>
      {LAYERS.map((l) => (
        <label key={l.id} className="terrain-layers__item" data-layer={l.id}>
          <input
            type="checkbox"
            checked={layers[l.id]}
            onChange={(e) => onChange({ ...layers, [l.id]: e.target.checked })}
          />
          <span className="terrain-layers__text">
            <span>{l.label}</span>
            <span className="terrain-layers__hint">
              {legend(l.id, palette).map(([name, color]) => (
                <span
                  key={name}
                  className="terrain-layers__swatch"
                  title={name}
                  style={{ background: cssHex(color) }}
                />
              ))}{' '}
              {l.hint}
            </span>
          </span>
        </label>
      ))}
      <button
        type="button"
        className="terrain-layers__all"
        onClick={() => onChange(Object.fromEntries(LAYERS.map((l) => [l.id, !all])) as LayerState)}
      >
        {all ? 'Hide every layer' : 'Show every layer'}
      </button>
    </fieldset>
  );
}
