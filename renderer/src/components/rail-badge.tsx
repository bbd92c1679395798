/**
 * A status line at the foot of the rail (backups, sync): a dot in its tone and the words, which
 * open the part of Settings they are about. In the narrow icon rail only the dot shows and the
 * words come as a tooltip, as the screens' do. Styles: `.backup-badge*` (features/backups).
 */
export function RailBadge({
  tone,
  text,
  label,
  problem,
  onOpen,
  'data-testid': testId,
}: {
  tone: 'ok' | 'warning' | 'running' | 'off';
  text: string;
  /** The visible words first, so speech and voice control find the button by what it shows. */
  label: string;
  /** Shown on hover: what went wrong, in main's words. */
  problem: string | undefined;
  onOpen: () => void;
  'data-testid'?: string;
}) {
  return (
    <div className="nav-entry backup-badge-entry">
      <button
        type="button"
        className={`backup-badge backup-badge-${tone}`}
        onClick={onOpen}
        aria-label={label}
        title={problem}
        data-testid={testId}
      >
        <span className="backup-badge-dot" aria-hidden="true" />
        <span className="backup-badge-text">{text}</span>
      </button>
      <span className="tooltip" aria-hidden="true">
        {text}
      </span>
    </div>
  );
}
