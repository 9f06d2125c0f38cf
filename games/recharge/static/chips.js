/* Recharge's counter chips editor (games/recharge/extras.py): recounts the chips and their
   points while the player types, before the change is saved. */
(function () {
  "use strict";

  function recount(form) {
    let count = 0;
    let total = 0;
    form.querySelectorAll("input[name=chip]").forEach(function (input) {
      count += 1;
      const value = parseInt(input.value, 10);
      if (!Number.isNaN(value)) total += value;
    });
    form.querySelectorAll("[data-chip-count]").forEach((el) => { el.textContent = count; });
    form.querySelectorAll("[data-chip-total]").forEach((el) => { el.textContent = total; });
  }

  document.addEventListener("input", function (event) {
    const form = event.target.closest && event.target.closest("form[data-chips]");
    if (form && event.target.name === "chip") recount(form);
  });
})();
