/* Small page-wide helpers on top of htmx. They live here, not in hx-on attributes: the Content
   Security Policy forbids inline code, and htmx runs with allowEval off.
   - A panel marked data-swap-refusals swaps in its refused answers (400) too: they carry the
     form with the field and the reason, which beats doing nothing. */
(function () {
  "use strict";

  document.addEventListener("htmx:beforeSwap", function (event) {
    const target = event.detail.target || event.target;
    if (event.detail.xhr.status !== 400 || !target.closest) return;
    if (target.closest("[data-swap-refusals]")) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
