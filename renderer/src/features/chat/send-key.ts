/**
 * The one Enter rule of every box that sends a message (the message box, an edit, the compare
 * box): with "Enter sends" on, Enter sends and Shift+Enter breaks the line; off, Enter breaks the
 * line and Ctrl+Enter (⌘+Enter) sends. A key that ends an input method's composition never sends.
 */
import type { KeyboardEvent } from 'react';

export function sendsMessage(event: KeyboardEvent, enterSends: boolean): boolean {
  if (event.key !== 'Enter' || event.nativeEvent.isComposing) return false;
  return enterSends ? !event.shiftKey : event.ctrlKey || event.metaKey;
}
