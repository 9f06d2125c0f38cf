/* Keeps "updated 5 minutes ago" true while a page stays open: every [data-relative-time]
   is rewritten from its datetime each half minute, in the page's language. */
(function () {
  "use strict";
  const UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400],
    ["hour", 3600], ["minute", 60]];

  function phrase(format, seconds) {
    for (const [unit, size] of UNITS) {
      if (Math.abs(seconds) >= size) return format.format(-Math.floor(seconds / size), unit);
    }
    return format.format(0, "minute");
  }

  function refresh() {
    if (typeof Intl === "undefined" || !Intl.RelativeTimeFormat) return;
    const format = new Intl.RelativeTimeFormat(document.documentElement.lang || "en", { numeric: "auto" });
    document.querySelectorAll("[data-relative-time]").forEach(function (el) {
      const when = Date.parse(el.getAttribute("data-relative-time"));
      if (!Number.isNaN(when)) el.textContent = phrase(format, (Date.now() - when) / 1000);
    });
  }

  setInterval(refresh, 30000);
  document.addEventListener("htmx:afterSettle", refresh);
})();
