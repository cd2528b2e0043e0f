// The conversation's session: the sessionId of the last answer, sent with the next
// question, and the turns so far, so a reload shows them (both in sessionStorage).

const SESSION_KEY = "storechat.sessionId";
const TURNS_KEY = "storechat.turns";
const MAX_KEPT_TURNS = 20;

export const session = {
  get id() { return sessionStorage.getItem(SESSION_KEY); },
  set id(value) {
    if (value) sessionStorage.setItem(SESSION_KEY, value);
    else sessionStorage.removeItem(SESSION_KEY);
  },
  turns() {
    try {
      const kept = JSON.parse(sessionStorage.getItem(TURNS_KEY) || "[]");
      return Array.isArray(kept) ? kept : [];
    } catch {
      return [];
    }
  },
  keep(message, body) {
    const turns = [...this.turns(), { message, body }].slice(-MAX_KEPT_TURNS);
    try {
      sessionStorage.setItem(TURNS_KEY, JSON.stringify(turns));
    } catch {
      // Storage full or disabled: the conversation still works, it just won't survive a reload.
    }
  },
  clear() {
    sessionStorage.removeItem(SESSION_KEY);
    sessionStorage.removeItem(TURNS_KEY);
  },
};
