// Whether the server asked for a token (a 401 on any call): the shell shows the token prompt while it is true.
let unauthorized = false;
const listeners = new Set<() => void>();

export function notifyUnauthorized(value = true): void {
  if (unauthorized === value) return;
  unauthorized = value;
  for (const l of listeners) l();
}

export function subscribeUnauthorized(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function isUnauthorized(): boolean {
  return unauthorized;
}
