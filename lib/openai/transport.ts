/**
 * One guarded HTTP call to an OpenAI-compatible server: `lib/model/`'s shared transport
 * (`openHttpCall`: the caller's signal, the timeouts, one failure ending every wait) with this
 * backend's parts: the API key as a bearer token, and its words for a refused connection, a
 * broken body and an error status.
 */
import { type HttpCall, type OpenCall, openHttpCall } from "../model/mod.ts";
import { brokeError, fetchError, type KeyInfo, statusError } from "./errors.ts";

export { type OpenCall, readJson } from "../model/mod.ts";

/** What to call and how long to wait, with the key. */
export interface CallSpec extends HttpCall {
  apiKey?: string;
  key: KeyInfo;
}

/** Sends the request; resolves once a 2xx answer's headers are in, else throws a ModelError. */
export function openCall(o: CallSpec): Promise<OpenCall> {
  return openHttpCall(
    {
      ...o,
      headers: { ...o.headers, ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}) },
    },
    {
      fetch: fetchError,
      broke: brokeError,
      status: (base, s) => statusError(base, { ...s, key: o.key }),
    },
  );
}
