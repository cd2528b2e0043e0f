// Talking to the API: POST /query, and what a failed request means for the shopper in
// the words of the API's contract (names.json's errors).

import { page } from "./config.js";
import { lookup } from "./dom.js";

const UNKNOWN_ERROR = { title: "Something went wrong", message: "Please try again.", retry: true };

export async function postQuery(message, sessionId, turnId, signal) {
  const payload = sessionId ? { message, sessionId, turnId } : { message, turnId };
  let response;
  try {
    response = await fetch(`${page.apiUrl}/query`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
      // No cookies: the widget runs on the store's pages, whose cookies are not ours.
      credentials: "omit",
      signal,
    });
  } catch (error) {
    return { kind: error && error.name === "AbortError" ? "aborted" : "network" };
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (response.ok && data && typeof data.answer === "string") return { kind: "ok", body: data };
  return { kind: "http", status: response.status, data };
}

/** The contract's entry for an error: by its code, else the first one with its status. */
function knownError(code, status) {
  const errors = page.names.errors;
  return lookup(errors, code)
    || Object.values(errors).find((error) => error.status === status)
    || UNKNOWN_ERROR;
}

export function describeFailure(result) {
  if (result.kind === "network") {
    return { title: "I couldn't reach the store assistant",
             detail: "Check your connection, then try again.", code: "network", retryable: true };
  }
  if (result.kind === "timeout") {
    // The page gave up waiting: the same words as the API's own timeout.
    const error = knownError("timeout", 504);
    return { title: error.title, detail: error.message, code: "timeout", retryable: true };
  }
  const data = result.data && typeof result.data === "object" ? result.data : {};
  const code = typeof data.error === "string" && data.error ? data.error : null;
  const serverText = typeof data.message === "string" && data.message ? data.message : null;
  const error = knownError(code, result.status);
  return {
    title: error.title,
    detail: serverText || (error === UNKNOWN_ERROR
      ? `The server answered with status ${result.status}. Please try again.`
      : error.message),
    hint: result.status === 400 ? "Change it in the box below and send it again." : null,
    code: code || `http_${result.status}`,
    retryable: Boolean(error.retry),
  };
}
