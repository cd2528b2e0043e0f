// The hosted chat page (index.html): the chat filling a page of its own, for a link in an
// e-mail. It is built from the same modules as the widget (launcher.js): the chat's
// elements (view.js) and the conversation (chat.js).

import { startChat } from "./chat.js";
import { loadConfig, loadNames, page } from "./config.js";
import { el } from "./dom.js";
import { chatView } from "./view.js";

async function init() {
  const app = document.getElementById("app");
  // Kept turns are shown once the names are known, in the same words as new ones.
  await Promise.all([loadConfig(), loadNames()]);
  document.documentElement.lang = page.language;
  if (page.store.name) document.title = `${page.store.name} · ${page.store.assistantName}`;
  app.append(el("a", { class: "skip-link", href: "#message", text: "Skip to the message box" }));
  startChat(chatView(app));
  document.documentElement.dataset.ready = "true";
}

init();
