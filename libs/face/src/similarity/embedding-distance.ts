export function cosineSimilarity(a: Float32Array, b: Float32Array): number {
  assertSameLength(a, b);
  let dot = 0;
  let normA = 0;
  let normB = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    normA += a[i] * a[i];
    normB += b[i] * b[i];
  }
  if (normA === 0 || normB === 0) return 0;
  return dot / Math.sqrt(normA * normB);
}

export function euclideanDistance(a: Float32Array, b: Float32Array): number {
  assertSameLength(a, b);
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = a[i] - b[i];
    sum += d * d;
  }
  return Math.sqrt(sum);
}

function assertSameLength(a: Float32Array, b: Float32Array): void {
  if (a.length !== b.length) {
    throw new RangeError(`embeddings differ in length (${a.length} vs ${b.length}); were they made by the same engine?`);
  }
}
