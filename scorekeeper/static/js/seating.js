/* Starting a session: the target, endings and house rules follow the rule system chosen; the first dealers are the names typed. */
import { $, $$ } from "./page.js";

export function seating(form) {
  /* The target shown follows the rule system chosen, until the recorder types another. */
  const target = $(form, "input[name=target]");
  const defaults = JSON.parse((target?.getAttribute("data-defaults")) || "{}");
  const chosen = $(form, "input[name=variant]:checked");
  let previous = chosen ? chosen.value : "";
  $$(form, "input[name=variant]").forEach((radio) => {
    radio.addEventListener("change", () => {
      if (target && String(defaults[previous]) === target.value && defaults[radio.value]) { target.value = defaults[radio.value]; }
      if (target && defaults[radio.value]) { target.placeholder = defaults[radio.value]; }
      previous = radio.value;
    });
  });
  /* Only the house rules of the rule system and the ending chosen are shown (all without JS). */
  const value = (name) => {
    const radio = $(form, "input[name=" + name + "]:checked");
    return radio ? radio.value : "";
  };
  const ends = JSON.parse(form.getAttribute("data-ends") || "{}");
  /* Only the endings of the rule system chosen are offered (German Rummy: a limit, no target). */
  const endings = () => {
    const allowed = ends[value("variant")];
    if (!allowed) { return; }
    const radios = $$(form, "input[name=end]");
    radios.forEach((radio) => { radio.closest("label").hidden = allowed.indexOf(radio.value) < 0; });
    const end = $(form, "input[name=end]:checked");
    if (!end || allowed.indexOf(end.value) < 0) {
      radios.filter((radio) => radio.value === allowed[0]).forEach((radio) => { radio.checked = true; });
    }
  };
  const show = () => {
    endings();
    $$(form, "[data-variant-only]").forEach((part) => {
      part.hidden = part.getAttribute("data-variant-only").split(" ").indexOf(value("variant")) < 0;
    });
    $$(form, "[data-end-only]").forEach((part) => { part.hidden = part.getAttribute("data-end-only") !== value("end"); });
  };
  $$(form, "input[name=variant], input[name=end]").forEach((radio) => radio.addEventListener("change", show));
  show();
  /* The first dealer is one of the names typed (or drawn by lot): seats left empty are not
     offered, and a dealer whose name is wiped out gives way to the first player. */
  const dealer = $(form, "select[name=dealer]");
  const offered = () => $$(dealer, "option").filter((option) => !option.hidden && option.value !== "lot");
  const named = () => {
    if (!dealer) { return; }
    const now = dealer.options[dealer.selectedIndex];
    if (now?.hidden) {
      const first = offered()[0];
      dealer.value = first ? first.value : "lot";
    }
  };
  $$(form, "input[name^=names-]").forEach((input) => {
    const option = $(form, 'select[name=dealer] option[value="' + input.name.slice(6) + '"]');
    if (!option) { return; }
    const seat = option.textContent;
    const name = () => {
      const typed = input.value.trim();
      option.textContent = typed || seat;
      option.hidden = !typed;
      option.disabled = !typed;
    };
    input.addEventListener("input", () => { name(); named(); });
    name();
  });
  if (dealer && offered().length) { named(); }
}
