// The conversation, the same on the hosted page (page.js) and in the widget
// (launcher.js): asking, New conversation, kept turns put back (and followed from other
// tabs), citations followed. The other modules hold one concern each: config.js
// (config.json and names.json), session.js (the kept session), api.js (POST /query),
// steps.js (the live trace), turns.js with answer-text.js, cards.js, trace.js and
// feedback.js (what a turn shows, its rating and its products' clicks), composer.js
// (the message box), view.js (the chat's elements) and dom.js.
//
// Safety rule for every module: text from the model or the server is only ever placed
// with textContent / createTextNode, never parsed as HTML.

import { describeFailure, postQuery } from "./api.js";
import { createComposer } from "./composer.js";
import { page } from "./config.js";
import { reportProductClick } from "./feedback.js";
import { announcer, el, reducedMotion, scrollToTurn } from "./dom.js";
import { session } from "./session.js";
import { followSteps, newTurnId, showSteps } from "./steps.js";
import { answerTurn, errorTurn, notice, pendingTurn, userTurn } from "./turns.js";

/** Run the conversation in `view` (view.js's chatView). Returns what its host may do. */
export function startChat(view) {
  const { conversation, welcome } = view;
  const composer = createComposer(view.composer);
  const announce = announcer(view.announcer);
  // Each chat's ids for its turns; a prefix keeps them apart from the page's own ids.
  const state = { turn: 0, controller: null, shown: "" };

  function setBusy(busy) {
    composer.setBusy(busy);
    conversation.setAttribute("aria-busy", String(busy));
  }

  async function ask(message) {
    if (composer.busy) return;
    const sentSessionId = session.id;
    welcome.hidden = true;
    const question = userTurn(message);
    const pending = pendingTurn();
    conversation.append(question, pending);
    scrollToTurn(question);
    setBusy(true);
    announce("Looking through the store…");

    const controller = new AbortController();
    state.controller = controller;
    let timedOut = false;
    const timer = page.requestTimeoutMs
      ? window.setTimeout(() => { timedOut = true; controller.abort(); }, page.requestTimeoutMs)
      : null;
    const turnId = newTurnId();
    const steps = pending.querySelector(".live-steps");
    const stopSteps = followSteps(`${page.apiUrl}/query/${turnId}/steps`,
      (found) => showSteps(steps, found));
    controller.signal.addEventListener("abort", stopSteps);
    let result = await postQuery(message, sentSessionId, turnId, controller.signal);
    stopSteps();
    window.clearTimeout(timer);
    if (state.controller !== controller) return; // "New conversation" replaced this one
    state.controller = null;
    if (result.kind === "aborted" && timedOut) result = { kind: "timeout" };
    pending.remove();
    setBusy(false);

    if (result.kind === "ok") {
      const body = result.body;
      session.keep(message, body, turnId);
      state.shown = session.version();
      const turn = answerTurn(body, `turn-${++state.turn}`, { sentSessionId, askedAs: turnId });
      conversation.append(turn);
      scrollToTurn(turn);
      const heading = body.outcome === "fallback" ? "storechat could not finish. " : "storechat answered. ";
      announce(heading + String(body.answer || ""));
      return;
    }

    const failure = describeFailure(result);
    if (!failure.retryable) {
      question.classList.add("turn--unsent");
      question.append(el("p", { class: "turn__status", text: "Not sent" }));
      composer.putBack(message);
    }
    const turn = errorTurn({
      title: failure.title,
      detail: failure.detail,
      hint: failure.hint,
      code: failure.code,
      retry: failure.retryable ? () => { question.remove(); ask(message); } : null,
    });
    conversation.append(turn);
    scrollToTurn(turn);
    announce(`${failure.title}. ${failure.detail}`);
  }

  function startNewConversation() {
    if (state.controller) state.controller.abort();
    state.controller = null;
    setBusy(false);
    session.clear();
    state.shown = "";
    conversation.replaceChildren();
    welcome.hidden = false;
    composer.reset();
    announce("New conversation started.");
  }

  function followCitation(event) {
    const link = event.target.closest("a.cite");
    if (!link) return;
    const card = view.chat.getRootNode().getElementById(link.dataset.target);
    if (!card) return;
    event.preventDefault();
    card.scrollIntoView({ block: "nearest", behavior: reducedMotion() ? "auto" : "smooth" });
    card.focus({ preventScroll: true });
    card.classList.remove("card--flash");
    void card.offsetWidth; // restart the highlight animation
    card.classList.add("card--flash");
  }

  /** Show the kept turns (after a reload, on another page, or from another tab). */
  function restore() {
    const turns = session.turns();
    state.shown = session.version();
    conversation.replaceChildren();
    welcome.hidden = turns.length > 0;
    const kept = document.createDocumentFragment();
    for (const { message, body, turnId } of turns) {
      if (typeof message !== "string" || !body || typeof body !== "object") continue;
      kept.append(userTurn(message), answerTurn(body, `turn-${++state.turn}`, { askedAs: turnId }));
    }
    conversation.append(kept);
  }

  if (page.model === "offline" || page.model === "replay") {
    view.badge.textContent = page.model === "offline" ? "offline model" : "replay model";
    view.badge.title = "Answers come from a deterministic stand-in for the language model";
    view.badge.hidden = false;
  }
  composer.start(ask, view.examples);
  view.newConversation.addEventListener("click", startNewConversation);
  conversation.addEventListener("click", followCitation);
  conversation.addEventListener("click", reportProductClick);
  restore();
  // Another tab of the site asked or started over: show the same conversation here.
  session.follow(() => {
    if (!composer.busy && session.version() !== state.shown) restore();
  });

  return {
    focus: () => composer.focus(),
    /** This page may not call the API: say why, and take no question. */
    refuse(title, detail) {
      view.notices.replaceChildren(notice("error", title, detail));
      welcome.hidden = true;
      composer.close("Not available on this page");
    },
  };
}
