import { useState, type DragEvent } from 'react';

export interface FileDrop {
  /** True while files are dragged over the target (it shows that it takes them). */
  dragging: boolean;
  dropProps: {
    onDragOver(event: DragEvent): void;
    onDragLeave(event: DragEvent): void;
    onDrop(event: DragEvent): void;
  };
}

/** Makes an element take files dropped from the file manager; other drags pass through. */
export function useFileDrop(onFiles: (files: File[]) => void, enabled = true): FileDrop {
  const [dragging, setDragging] = useState(false);
  return {
    dragging: dragging && enabled,
    dropProps: {
      onDragOver(event) {
        if (!enabled || !event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'copy';
        setDragging(true);
      },
      onDragLeave() {
        setDragging(false);
      },
      onDrop(event) {
        setDragging(false);
        if (!enabled || event.dataTransfer.files.length === 0) return;
        event.preventDefault();
        onFiles([...event.dataTransfer.files]);
      },
    },
  };
}
