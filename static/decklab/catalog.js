/* Catalog filters: leave unset fields out of the URLs htmx requests and pushes, so a shared link
   reads ?type=weapon rather than listing every empty filter. Without JS the plain GET form still
   works; its URLs are just longer. */
(function () {
  "use strict";

  function isAnySelect(field) {
    // Django's yes/no select uses "unknown" for "any"
    if (!(field instanceof HTMLSelectElement)) return false;
    return Array.from(field.options, (o) => o.value).join() === "unknown,true,false";
  }

  document.addEventListener("htmx:configRequest", function (event) {
    const form = event.target.closest("form[data-compact-query]");
    if (!form) return;
    const params = event.detail.parameters;
    const unset = [];
    for (const [name, value] of params.entries()) {
      if (value === "" || (value === "unknown" && isAnySelect(form.elements[name]))) {
        unset.push(name);
      }
    }
    unset.forEach((name) => params.delete(name));
  });
})();
