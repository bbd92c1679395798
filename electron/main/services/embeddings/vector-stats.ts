/** What a vector looks like at a glance: its length, its norm and its first values. */
export function vectorStats(
  vector: ArrayLike<number>,
  previewLength: number,
): { dimensions: number; norm: number; preview: number[] } {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += (vector[i] as number) ** 2;
  const preview: number[] = [];
  for (let i = 0; i < Math.min(previewLength, vector.length); i++)
    preview.push(vector[i] as number);
  return { dimensions: vector.length, norm: Math.sqrt(sum), preview };
}
