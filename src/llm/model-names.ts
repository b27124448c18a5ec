// Model names as servers list them.

/** Ollama treats "name" and "name:latest" as the same model. */
export function sameModel(a: string, b: string): boolean {
  return withTag(a) === withTag(b);
}

function withTag(name: string): string {
  const lastSegment = name.slice(name.lastIndexOf('/') + 1);
  return lastSegment.includes(':') ? name : `${name}:latest`;
}
