/** Sizes a canvas for crisp drawing at the screen's pixel ratio; returns its 2-D context. */
export function prepareCanvas(
  canvas: HTMLCanvasElement,
  cssSize: number,
): CanvasRenderingContext2D | null {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(cssSize * ratio);
  canvas.height = Math.round(cssSize * ratio);
  const context = canvas.getContext('2d');
  context?.setTransform(ratio, 0, 0, ratio, 0, 0);
  return context;
}

/** Where a pointer event falls on the canvas, in CSS pixels from its top left. */
export function pointerAt(
  canvas: HTMLCanvasElement,
  event: { clientX: number; clientY: number },
): { x: number; y: number } {
  const box = canvas.getBoundingClientRect();
  return { x: event.clientX - box.left, y: event.clientY - box.top };
}
