import { useId } from 'react';

export interface SegmentedProps<T extends string> {
  options: readonly { id: T; label: string }[];
  value: T;
  onChange: (id: T) => void;
  label: string;
}

/** A segmented control: native radio buttons (one tab stop, arrow keys move and select), drawn as one bar. */
export function Segmented<T extends string>({ options, value, onChange, label }: SegmentedProps<T>) {
  const name = useId();
  return (
    <fieldset className="segmented">
      <legend className="segmented__legend">{label}</legend>
      {options.map((o) => (
        <label key={o.id} className="segmented__option">
          <input
            type="radio"
            name={name}
            value={o.id}
            checked={o.id === value}
            onChange={() => onChange(o.id)}
          />
          <span>{o.label}</span>
        </label>
      ))}
    </fieldset>
  );
}
