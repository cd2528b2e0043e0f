// The conversation's session: the sessionId of the last answer, sent with the next
// question, and the turns so far. Kept in localStorage, so the conversation follows the
// shopper from page to page and across tabs and reloads of the same site, until New
// conversation or IDLE_MS without a question. Nothing else of the site's is read or
// written (no cookies): one key, under the chat's own name.

const KEY = "storechat.conversation";
const MAX_KEPT_TURNS = 20;
// After half an hour without a question the next one starts a new conversation, as a
// shopper coming back later expects (the server keeps the session for days).
export const IDLE_MS = 30 * 60 * 1000;

function read() {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "null");
    if (!kept || typeof kept !== "object" || typeof kept.at !== "number") return null;
    if (Date.now() - kept.at > IDLE_MS) return null;
    return kept;
  } catch {
    return null; // storage disabled, or not ours to read: no kept conversation
  }
}

function write(kept) {
  try {
    if (kept) localStorage.setItem(KEY, JSON.stringify(kept));
    else localStorage.removeItem(KEY);
  } catch {
    // Storage full or disabled: the conversation still works, it just won't follow the shopper.
  }
}

export const session = {
  get id() {
    const kept = read();
    return kept && typeof kept.sessionId === "string" ? kept.sessionId : null;
  },
  turns() {
    const kept = read();
    return kept && Array.isArray(kept.turns) ? kept.turns : [];
  },
  /** The marker of the kept conversation: it changes when any tab adds to it or starts over. */
  version() {
    const kept = read();
    return kept ? `${kept.sessionId}:${kept.turns?.length}` : "";
  },
  /** Keep an answer; `turnId`: the page's id of the question, which its rating is sent under. */
  keep(message, body, turnId) {
    const turns = [...this.turns(), { message, body, turnId }].slice(-MAX_KEPT_TURNS);
    const sessionId = typeof body.sessionId === "string" ? body.sessionId : this.id;
    write({ sessionId, turns, at: Date.now() });
  },
  clear() {
    write(null);
  },
  /** Call `onChange` when another tab of this site changes the conversation. */
  follow(onChange) {
    window.addEventListener("storage", (event) => {
      if (event.key === KEY || event.key === null) onChange();
    });
  },
};
