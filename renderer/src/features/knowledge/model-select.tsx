/** A choice of embeddings models, which says so when there is none to choose. */
export function ModelSelect({
  id,
  models,
  value,
  empty,
  onChange,
}: {
  id: string;
  models: readonly string[];
  value: string;
  /** What the select shows when there is no model to choose. */
  empty: string;
  onChange(model: string): void;
}) {
  return (
    <select
      id={id}
      className="select"
      value={value}
      disabled={models.length === 0}
      onChange={(e) => onChange(e.target.value)}
    >
      {models.length === 0 && <option value="">{empty}</option>}
      {models.map((model) => (
        <option key={model} value={model}>
          {model}
        </option>
      ))}
    </select>
  );
}
