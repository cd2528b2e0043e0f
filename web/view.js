// The chat's elements, built the same way for the hosted page and for the widget's
// panel: a header with the store's name and New conversation, the welcome with the
// store's greeting and example questions, the conversation, the message box and the
// live region. Each part is handed back by name; ids are unique within the chat's root
// (the page, or the widget's shadow root).

import { page } from "./config.js";
import { el } from "./dom.js";

function welcomeBlock() {
  const { greeting, suggestions, name } = page.store;
  const examples = suggestions.map((text) => el("button", { type: "button", class: "suggestion", text }));
  return {
    examples,
    node: el("section", { class: "welcome", id: "welcome", "aria-labelledby": "welcome-title" },
      el("h2", { id: "welcome-title", class: "welcome__title", text: "What are you shopping for?" }),
      el("p", { class: "welcome__text",
        text: greeting || `Ask in your own words. I search ${name || "the store"}'s catalog and show you what fits.` }),
      examples.length
        ? el("ul", { class: "suggestions", "aria-label": "Example questions" },
          examples.map((button) => el("li", {}, button)))
        : null),
  };
}

function composerBlock() {
  const input = el("textarea", {
    id: "message", name: "message", rows: "1", autocomplete: "off",
    placeholder: "Type your question…",
    "aria-describedby": "composer-hint composer-count",
  });
  const sendLabel = el("span", { class: "send__label", text: "Send" });
  const send = el("button", { type: "submit", class: "button button--primary", id: "send" }, sendLabel);
  const counter = el("span", { id: "composer-count", class: "composer__count", "aria-live": "off" });
  const form = el("form", { class: "composer", id: "composer", novalidate: true },
    el("label", { class: "composer__label", for: "message", text: "Your question" }),
    el("div", { class: "composer__row" }, input, send),
    el("p", { class: "composer__meta" },
      el("span", { id: "composer-hint", text: "Enter sends · Shift+Enter adds a new line" }),
      counter));
  return { form, input, send, sendLabel, counter, bar: el("div", { class: "composer-bar" }, form) };
}

/**
 * The chat's parts, in `root`. `actions` are buttons for the header besides New
 * conversation (the widget's Close); `headingLevel` is the store name's heading.
 */
export function chatView(root, { actions = [], headingLevel = "h1" } = {}) {
  const badge = el("span", { class: "badge badge--model", id: "model-badge", hidden: true });
  const newConversation = el("button", {
    type: "button", class: "button button--quiet", id: "new-conversation", text: "New conversation",
  });
  const header = el("header", { class: "chat-header" },
    el("div", { class: "chat-header__inner" },
      el("div", { class: "brand" },
        el("span", { class: "brand__mark", "aria-hidden": "true", text: "◆" }),
        el("div", { class: "brand__text" },
          el("div", { class: "brand__title" },
            el(headingLevel, { class: "brand__name", text: page.store.name || "storechat" }),
            badge),
          el("p", { class: "brand__tagline", text: page.store.assistantName }))),
      el("div", { class: "chat-header__actions" }, newConversation, ...actions)));
  const welcome = welcomeBlock();
  const conversation = el("ol", { class: "conversation", id: "conversation", "aria-label": "Conversation" });
  const notices = el("div", { class: "chat-notices" });
  const main = el("main", { class: "chat-main", id: "main" }, notices, welcome.node, conversation);
  const composer = composerBlock();
  const region = el("div", {
    class: "visually-hidden", id: "announcer", role: "status", "aria-live": "polite", "aria-atomic": "true",
  });
  const chat = el("div", { class: "chat", lang: page.language }, header, main, composer.bar, region);
  if (page.store.colors) {
    // The store's colour, through the CSSOM (not a style attribute a strict CSP refuses).
    chat.style.setProperty("--accent", page.store.colors.accent);
    chat.style.setProperty("--on-accent", page.store.colors.onAccent);
  }
  root.append(chat);
  return {
    chat, header, badge, newConversation, main, notices,
    welcome: welcome.node, examples: welcome.examples,
    conversation, composer, announcer: region,
  };
}
