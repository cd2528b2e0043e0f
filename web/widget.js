// storechat on the store's own pages: the one tag a store adds to its theme,
//   <script src="https://CHAT-HOST/widget.js" async></script>
// A classic script (the tag has no type), so it works wherever a script may load. It only
// finds where it came from and loads the widget's modules from there (launcher.js); they
// build the launcher and the panel in a shadow root of their own. Nothing is set on the
// page's window and nothing of the page is read but this script's own address.
(() => {
  const script = document.currentScript;
  // Twice on one page (a theme and an app both add the tag): one widget is enough.
  if (!script || !script.src || document.querySelector("storechat-widget")) return;
  const base = new URL(".", script.src).href;
  import(new URL("launcher.js", base).href)
    .then((launcher) => launcher.mount(base))
    .catch((error) => {
      // The store's page stays as it is; its developers can see why in the console.
      console.warn(`storechat: the chat could not load from ${base}: ${error}`);
    });
})();
