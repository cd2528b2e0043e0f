// The message box: Enter sends, Shift+Enter adds a line, the example questions send
// themselves. A counter shows near the contract's longest message, and Send is off past
// it or while a question runs.

import { count } from "./config.js";

// The contract's longest message: the counter warns near it and Send is off past it. A
// deployment may allow less; its 400 message is then shown as is.
const MAX_MESSAGE_CHARS = 2000;

/** The composer of one chat, over its parts (view.js's `composer`). */
export function createComposer({ form, input, send, sendLabel, counter }) {
  let busy = false;
  let closed = false;
  const tooLong = () => input.value.length > MAX_MESSAGE_CHARS;

  function update() {
    const length = input.value.length;
    // Grow with the text (up to the CSS max-height); an empty box keeps its one-line size.
    input.style.height = "";
    if (length) input.style.height = `${Math.min(input.scrollHeight + 2, 200)}px`;
    const over = tooLong();
    counter.hidden = length < MAX_MESSAGE_CHARS * 0.9;
    counter.textContent = `${count.format(length)} / ${count.format(MAX_MESSAGE_CHARS)}${over ? " · too long" : ""}`;
    counter.classList.toggle("composer__count--over", over);
    // Send is off while the counter says too long; the counter says why.
    send.disabled = closed || busy || over;
  }

  function submit(onSend) {
    const message = input.value;
    // Nothing to send (or too much) is not sent, and needs no message: the box shows it.
    if (closed || busy || !message.trim() || tooLong()) return;
    input.value = "";
    update();
    onSend(message);
  }

  return {
    get busy() { return busy; },

    /** While a question runs: Send is off and reads "Sending…", the form is aria-busy. */
    setBusy(value) {
      busy = value;
      form.setAttribute("aria-busy", String(value));
      send.disabled = closed || value || tooLong();
      sendLabel.textContent = value ? "Sending…" : "Send";
    },

    /** No questions at all (the chat cannot answer on this page): the box says why. */
    close(reason) {
      closed = true;
      input.disabled = true;
      input.placeholder = reason;
      update();
    },

    /** Put a message that was not sent back in the box to edit, unless another is there. */
    putBack(message) {
      if (input.value) return;
      input.value = message;
      update();
    },

    /** An empty box, with the focus in it. */
    reset() {
      input.value = "";
      update();
      input.focus();
    },

    focus() { input.focus(); },

    /** Hand each message the shopper sends (typed, or an example's) to `onSend`. */
    start(onSend, examples) {
      form.addEventListener("submit", (event) => {
        event.preventDefault();
        submit(onSend);
      });
      input.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
          event.preventDefault();
          submit(onSend);
        }
      });
      input.addEventListener("input", update);
      for (const button of examples) {
        button.addEventListener("click", () => {
          if (busy || closed) return;
          input.value = button.textContent.trim();
          submit(onSend);
          input.focus();
        });
      }
      update();
    },
  };
}
