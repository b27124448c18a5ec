// Endpoint URLs from the configured base URL.

/** The base URL without trailing slashes. */
export function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The OpenAI-compatible root: accepts a base with or without a trailing /v1. */
export function openAIRoot(url: string): string {
  return trimBase(url).replace(/\/v1$/, '');
}
