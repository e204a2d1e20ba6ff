/** A transport-free request: what node:http, a test or an in-process client hands the core. */
export interface FakeRequest {
  method: string;
  /** Path with an optional query string: /v2/notes?limit=5 */
  url: string;
  /** Header names in lower case. */
  headers?: Readonly<Record<string, string | readonly string[] | undefined>>;
  /** Raw body bytes or text; absent for no body. */
  body?: Uint8Array | string;
}

export interface FakeResponse {
  status: number;
  headers: Record<string, string>;
  /** The JSON value of the body, or undefined for a raw text body. */
  json: unknown;
  /** The body as sent on the wire. */
  text: string;
}
