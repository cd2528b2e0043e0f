// The conversation's turns as list items: a question, the answer with its notices,
// cards and trace, the waiting turn (with the live trace's list), and an error.

import { answerBlock, correctionMarks } from "./answer-text.js";
import { productCard } from "./cards.js";
import { page } from "./config.js";
import { el, lookup } from "./dom.js";
import { ratingBlock } from "./feedback.js";
import { traceBlock } from "./trace.js";

const NOTICE_TONES = { fallback: "warn", refused: "muted" };

export function notice(tone, title, detail) {
  return el("div", { class: `notice notice--${tone}` },
    el("p", { class: "notice__title", text: title }),
    detail && el("p", { class: "notice__detail", text: detail }));
}

/** An answer; `turnId` is its element id, `askedAs` the page's id for the question (its
 * ratings and clicks are sent under it; none for an answer kept from before). */
export function answerTurn(body, turnId, { sentSessionId, askedAs } = {}) {
  const products = Array.isArray(body.products) ? body.products : [];
  const cards = new Map();
  for (const product of products) {
    if (product && typeof product.productId === "string" && !cards.has(product.productId)) {
      // An element id holds no spaces (aria-labelledby reads a list of them): any SKU is
      // written encoded, "CMP-023" as itself.
      const id = `${turnId}-${encodeURIComponent(product.productId)}`;
      cards.set(product.productId, { id, name: product.name, product });
    }
  }
  const outcome = body.outcome || "answered";
  const rated = typeof askedAs === "string" && typeof body.sessionId === "string";
  const item = el("li", { class: `turn turn--assistant turn--${outcome}`, id: turnId,
    dataset: rated ? { outcome, turnId: askedAs, sessionId: body.sessionId } : { outcome } });
  item.append(el("h2", { class: "visually-hidden", text: "storechat's answer" }));

  const title = (lookup(page.names.outcomes, outcome) || {}).notice;
  if (title) {
    const reason = outcome === "fallback"
      ? lookup(page.names.fallbackReasons, body.fallbackReason) || "something went wrong"
      : null;
    item.append(notice(NOTICE_TONES[outcome] || "info", title, reason && `Reason: ${reason}.`));
  }
  if (sentSessionId && body.sessionId && body.sessionId !== sentSessionId) {
    item.append(notice("info", "New conversation",
      "Your earlier conversation had expired, so this one starts fresh."));
  }
  const answer = String(body.answer || "");
  item.append(answerBlock(answer, cards, correctionMarks(body, answer)));
  if (cards.size) {
    item.append(el("ul", { class: "cards", "aria-label": "Products in this answer" },
      [...cards.values()].map((card) => productCard(card.product, card.id))));
  }
  const notes = [];
  if (Array.isArray(body.unverifiedCitations) && body.unverifiedCitations.length) {
    notes.push("I left out products I could not verify in the catalog.");
  }
  const corrections = Array.isArray(body.corrections) ? body.corrections : [];
  if (corrections.some((c) => c && !c.dropped)) {
    notes.push("Highlighted facts were corrected to the catalog's values.");
  }
  if (corrections.some((c) => c && c.dropped)) {
    notes.push("I left out a statement that did not match the catalog.");
  }
  if (body.historySaved === false) {
    notes.push("I couldn't save this turn, so a follow-up may not remember it.");
  }
  for (const text of notes) item.append(el("p", { class: "answer__note", text }));
  if (rated) item.append(ratingBlock(askedAs, body.sessionId));
  item.append(traceBlock(body));
  return item;
}

export function userTurn(message) {
  return el("li", { class: "turn turn--user" },
    el("h2", { class: "visually-hidden", text: "You asked" }),
    el("p", { class: "bubble", text: message }));
}

export function pendingTurn() {
  // The live trace's lines go in the list as they happen (steps.js); without any, the
  // spinner and its words are all there is.
  return el("li", { class: "turn turn--assistant turn--pending", "aria-busy": "true" },
    el("span", { class: "spinner", "aria-hidden": "true" }),
    el("p", { class: "pending__text", text: "Looking through the store…" }),
    el("ol", { class: "live-steps", role: "log", "aria-label": "What I'm doing", hidden: true }));
}

export function errorTurn({ title, detail, hint, code, retry }) {
  const box = notice("error", title, detail);
  if (hint) box.append(el("p", { class: "notice__hint", text: hint }));
  const item = el("li", { class: "turn turn--error", dataset: { error: code || "" } },
    el("h2", { class: "visually-hidden", text: "Error" }),
    box);
  if (retry) {
    const button = el("button", { type: "button", class: "button button--quiet", text: "Try again" });
    button.addEventListener("click", () => {
      item.remove();
      retry();
    });
    item.append(button);
  }
  return item;
}
