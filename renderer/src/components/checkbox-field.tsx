import { useId, type ReactNode } from 'react';

export interface CheckboxFieldProps {
  checked: boolean | undefined;
  onChange(checked: boolean): void;
  disabled?: boolean | undefined;
  /** What the choice does, in a line under the box that is read with it. */
  hint?: ReactNode;
  /** The hint's id, where something else names it (by default one is made). */
  hintId?: string;
  /** The label. */
  children: ReactNode;
}

/** A setting that is on or off: the box, its label, and what it does under them. */
export function CheckboxField({
  checked,
  onChange,
  disabled,
  hint,
  hintId,
  children,
}: CheckboxFieldProps) {
  const madeId = useId();
  const describedBy = hint === undefined ? undefined : (hintId ?? `${madeId}-hint`);
  return (
    <>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={checked}
          disabled={disabled}
          aria-describedby={describedBy}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{children}</span>
      </label>
      {describedBy && (
        <p className="muted" id={describedBy}>
          {hint}
        </p>
      )}
    </>
  );
}
