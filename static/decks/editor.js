/* The deck editor's small helpers on top of htmx:
   - refused changes (400 bad input, 409 stale version) still swap their fragments in, so the
     editor shows the field and the reason, or the reload link, instead of doing nothing.
   A game's deck extras bring their own scripts (decks/extras.py ``Extra.script``). */
(function () {
  "use strict";

  // In DEBUG, django-htmx replaces the whole page with any 400 response (to show Django's error
  // pages); the editor's 400s are fragments it shows itself, so keep them from that handler.
  document.documentElement.addEventListener("htmx:beforeOnLoad", function (event) {
    const status = event.detail.xhr.status;
    const fromEditor = event.target.closest && event.target.closest("#deck-editor");
    if (fromEditor && (status === 400 || status === 409)) event.stopPropagation();
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    const status = event.detail.xhr.status;
    if (status === 400 || status === 409) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });

  document.addEventListener("htmx:sendError", function () {
    const editor = document.getElementById("deck-editor");
    const box = document.getElementById("editor-message");
    if (!editor || !box) return;
    const alert = document.createElement("div");
    alert.className = "alert alert-danger";
    alert.setAttribute("role", "alert");
    alert.textContent = editor.dataset.offlineMessage;
    box.replaceChildren(alert);
  });
})();
