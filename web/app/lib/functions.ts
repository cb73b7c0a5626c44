/**
 * The client of the backend functions. It speaks the wire contract of the
 * hosted backend's functions.invoke (docs/requirements.md#backend-functions): POST a JSON
 * body to /functions/v1/<name>; an answer that carries "error", or is not a
 * success, is a failure. The Go binary serves them on the same origin.
 */

export const FUNCTIONS_BASE = "/functions/v1";

/** The message when the server gave none (the network failed, say). */
export const GENERIC_FAILURE = "Something went wrong. Please try again.";

/**
 * FunctionError is a failed call. Its message is the server's "error" when
 * there is one (fromServer is then true), else GENERIC_FAILURE.
 */
export class FunctionError extends Error {
  readonly status: number;
  readonly fromServer: boolean;
  /** The message of each bad field, on a 400. */
  readonly fields: Readonly<Record<string, string>>;

  constructor(message: string | undefined, status: number, fields: Record<string, string> = {}) {
    super(message || GENERIC_FAILURE);
    this.name = "FunctionError";
    this.status = status;
    this.fromServer = Boolean(message);
    this.fields = fields;
  }
}

export type InvokeOptions = {
  /** Origin of the server; the page's own when empty. */
  baseUrl?: string;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Sent as the Idempotency-Key header: a call repeated with the same key
   * (after an answer was lost) is answered as the first and stores nothing again. */
  idempotencyKey?: string;
};

/** newIdempotencyKey is 128 random bits in hex (crypto.randomUUID is only
 * offered in secure contexts; getRandomValues everywhere). */
export function newIdempotencyKey(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** invokeFunction calls a backend function and resolves with its answer. */
export async function invokeFunction<T = unknown>(name: string, body: unknown, options: InvokeOptions = {}): Promise<T> {
  const doFetch = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await doFetch(`${options.baseUrl ?? ""}${FUNCTIONS_BASE}/${name}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(options.idempotencyKey ? { "Idempotency-Key": options.idempotencyKey } : {}) },
      body: JSON.stringify(body),
      signal: options.signal,
    });
  } catch {
    throw new FunctionError(undefined, 0);
  }
  let data: unknown = null;
  if ((response.headers.get("Content-Type") ?? "").includes("application/json")) {
    data = await response.json().catch(() => null);
  }
  const payload = (data ?? {}) as { error?: unknown; fields?: unknown };
  if (!response.ok || payload.error != null) {
    const message = typeof payload.error === "string" ? payload.error : undefined;
    const fields = payload.fields && typeof payload.fields === "object" ? (payload.fields as Record<string, string>) : {};
    throw new FunctionError(message, response.status, fields);
  }
  return data as T;
}
