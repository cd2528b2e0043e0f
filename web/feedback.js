// What the shopper thought of an answer, and which of its products they opened: under
// each answer "Helpful" and "Not helpful" (with an optional comment), and a click on a
// card or its "Add to cart" reported, all through POST /query/{turnId}/feedback. The
// turn is the page's own id for the question; the session proves it is this shopper's.
// Nothing personal is sent: a rating, a comment the shopper writes, a product id.

import { page } from "./config.js";
import { el } from "./dom.js";

export const MAX_COMMENT_CHARS = 500; // record_feedback.schema.MAX_COMMENT_CHARS

/** Send one rating or event; resolves to {ok, message} (the API's JSON error message). */
export async function sendFeedback(turnId, payload) {
  let response;
  try {
    response = await fetch(`${page.apiUrl}/query/${encodeURIComponent(turnId)}/feedback`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(payload),
      credentials: "omit",
      // A click on a link leaves the page: the report still goes.
      keepalive: true,
    });
  } catch {
    return { ok: false, message: "Your feedback could not be sent. Check your connection." };
  }
  if (response.ok) return { ok: true };
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  const message = data && typeof data.message === "string" && data.message
    ? data.message : `The server answered with status ${response.status}.`;
  return { ok: false, message };
}

/** "Was this helpful?" for the answer of `turnId` in `sessionId`. */
export function ratingBlock(turnId, sessionId) {
  const status = el("p", { class: "rating__status", role: "status" });
  const helpful = el("button", { type: "button", class: "rating__button", "aria-pressed": "false",
    text: "Helpful" });
  const unhelpful = el("button", { type: "button", class: "rating__button", "aria-pressed": "false",
    text: "Not helpful" });
  const commentId = `${turnId}-comment`;
  const comment = el("textarea", { id: commentId, class: "rating__comment", rows: "2",
    maxlength: String(MAX_COMMENT_CHARS) });
  const send = el("button", { type: "submit", class: "button button--quiet", text: "Send" });
  const form = el("form", { class: "rating__form", hidden: true },
    el("label", { for: commentId, text: "What was missing? (optional)" }), comment, send);

  async function rate(rating, text) {
    helpful.setAttribute("aria-pressed", String(rating === "up"));
    unhelpful.setAttribute("aria-pressed", String(rating === "down"));
    const payload = { sessionId, rating };
    if (text) payload.comment = text;
    const sent = await sendFeedback(turnId, payload);
    status.textContent = sent.ok ? "Thanks for your feedback." : sent.message;
    status.classList.toggle("rating__status--error", !sent.ok);
    return sent.ok;
  }

  helpful.addEventListener("click", () => {
    form.hidden = true;
    rate("up");
  });
  unhelpful.addEventListener("click", () => {
    form.hidden = false;
    rate("down");
    comment.focus();
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = comment.value.trim();
    if (!text) return;
    if (await rate("down", text)) form.hidden = true;
  });
  return el("div", { class: "rating", role: "group", "aria-label": "Rate this answer" },
    el("p", { class: "rating__question", text: "Was this helpful?" }),
    helpful, unhelpful, form, status);
}

/** Report a click on a card's links or its "Add to cart" in an answer (chat.js listens). */
export function reportProductClick(event) {
  const link = event.target.closest("a.card__link, a.card__media, a.card__cart");
  const card = link && link.closest("[data-product-id]");
  const turn = card && card.closest("[data-turn-id]");
  if (!turn || !turn.dataset.sessionId) return;
  sendFeedback(turn.dataset.turnId, {
    sessionId: turn.dataset.sessionId,
    event: link.classList.contains("card__cart") ? "add_to_cart" : "click",
    productId: card.dataset.productId,
  });
}
