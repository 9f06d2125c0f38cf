/* The deck editor's small helpers on top of htmx:
   - refused changes (400 bad input, 409 stale version) still swap their fragments in, so the
     editor shows the field and the reason, or the reload link, instead of doing nothing;
   - one tab's changes are sent one at a time, each with the version the last answer brought;
   - a redraw keeps the field the player is typing in;
   - a failed search says so instead of leaving the last query's results.
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

  // A search that fails (an error answer, no answer) says so in place of the results: the
  // previous query's results left standing would pass for this query's.
  function searchFailed(event) {
    const results = event.detail.target;
    if (!results || results.id !== "search-results") return;
    const alert = document.createElement("div");
    alert.className = "alert alert-danger small mb-0";
    alert.setAttribute("role", "alert");
    alert.dataset.searchError = "";
    alert.textContent = results.dataset.errorMessage;
    results.replaceChildren(alert);
  }
  ["htmx:responseError", "htmx:sendError", "htmx:timeout"].forEach(function (name) {
    document.addEventListener(name, searchFailed);
  });

  function editorAlert(text) {
    const box = document.getElementById("editor-message");
    if (!box) return;
    const alert = document.createElement("div");
    alert.className = "alert alert-danger";
    alert.setAttribute("role", "alert");
    alert.textContent = text;
    box.replaceChildren(alert);
  }

  document.addEventListener("htmx:sendError", function () {
    const editor = document.getElementById("deck-editor");
    if (editor) editorAlert(editor.dataset.offlineMessage);
  });

  // a write answered with a server error (400 and 409 are swapped in above) is not saved
  // either: say so rather than leave the page looking as if it were
  document.addEventListener("htmx:responseError", function (event) {
    const editor = document.getElementById("deck-editor");
    if (editor && event.detail.elt === editor) editorAlert(editor.dataset.failedMessage);
  });

  // One tab's writes go to the server one after the other, each naming the version the answer
  // before it brought (#deck-version, read when the request leaves, not when it was asked for):
  // sent side by side, two quick clicks both named the same version and the second was refused
  // as "changed elsewhere". What a change sends is taken when the player makes it, so a list
  // redrawn meanwhile cannot lose or alter it. Another tab's or device's writes still move the
  // version under this page, and the server refuses its next change with the reload message.
  let queue = Promise.resolve();

  function editorOf(element) {
    return element && element.closest ? element.closest("#deck-editor") : null;
  }

  function valuesOf(element) {
    const values = {};
    for (const [name, value] of htmx.values(element, "post")) {
      if (name === "version") continue;
      (values[name] = values[name] || []).push(value);
    }
    const extra = element.getAttribute("hx-vals");
    if (extra) Object.assign(values, JSON.parse(extra));
    return values;
  }

  document.addEventListener("htmx:confirm", function (event) {
    const detail = event.detail;
    const editor = editorOf(detail.elt);
    if (!editor || detail.elt === editor || detail.verb === "get") return;
    if (!detail.path || !detail.path.startsWith(editor.dataset.writes)) return;
    event.preventDefault();
    const values = valuesOf(detail.elt);
    queue = queue
      .then(function () {
        return htmx.ajax("post", detail.path, { source: editor, values: values, swap: "none" });
      })
      .catch(function () {
        // a request that never got an answer is reported by the htmx:sendError handler; the
        // next change still goes
      });
  });

  // The list (or a game's extra) is redrawn after every change, and a redraw must not take
  // away the field the player is typing in: the focused field stays the very same element
  // (with its value and cursor) and only what surrounds it is replaced.
  // rows are matched by entry and zone; the rest (an extra's value among its values) by place
  function keyOf(element, index) {
    return element.id || element.dataset.entry || element.dataset.zone || element.tagName + ":" + index;
  }

  function counterpart(fresh, live) {
    const key = keyOf(live, Array.prototype.indexOf.call(live.parentNode.children, live));
    const children = Array.from(fresh.children);
    return children.find((child, i) => keyOf(child, i) === key) || null;
  }

  function copyAttributes(live, fresh) {
    for (const name of live.getAttributeNames()) {
      if (!fresh.hasAttribute(name)) live.removeAttribute(name);
    }
    for (const name of fresh.getAttributeNames()) {
      if (name !== "hx-swap-oob") live.setAttribute(name, fresh.getAttribute(name));
    }
  }

  // ``live`` (in the page) becomes ``fresh`` (from the answer), except that ``path[0]``, the
  // child leading to the focused field, is kept in place and treated the same way.
  function graft(live, fresh, path) {
    const keep = path[0];
    const match = counterpart(fresh, keep);
    if (!match) return false;
    if (path.length > 1) {
      if (!graft(keep, match, path.slice(1))) return false;
    } else if (keep.tagName === "INPUT") {
      // the focused field keeps what the player is typing (a typed value no longer follows
      // its value attribute); the attribute takes the saved value
      copyAttributes(keep, match);
    }
    copyAttributes(live, fresh);
    const before = [];
    const after = [];
    let seen = false;
    for (const child of Array.from(fresh.childNodes)) {
      if (child === match) seen = true;
      else (seen ? after : before).push(child);
    }
    for (const child of Array.from(live.childNodes)) {
      if (child !== keep) child.remove();
    }
    keep.before(...before);
    keep.after(...after);
    return true;
  }

  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    const target = event.detail.target;
    const focused = document.activeElement;
    if (!editorOf(target) || !focused || !target.contains(focused) || target === focused) return;
    if (!focused.matches("input, select, textarea")) return;
    const fresh = event.detail.fragment.firstElementChild;
    if (!fresh || fresh.id !== target.id) return;
    const path = [];
    for (let node = focused; node !== target; node = node.parentElement) path.unshift(node);
    // graft checks every level before it changes anything: false leaves the page untouched
    if (!graft(target, fresh, path)) return;
    event.detail.shouldSwap = false;
    htmx.process(target);
  });
})();
