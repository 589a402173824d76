/* The start page: the new session's form gets its script (seating.js) when it opens; forget.js takes sessions off the phone. */
import { $$ } from "./page.js";
import "./forget.js";

function whenOpen(form) {
  const folded = form.closest("details");
  const load = () => import("./seating.js").then((module) => module.seating(form));
  if (!folded || folded.open) { load(); return; }
  folded.addEventListener("toggle", load, { once: true });
}

$$(document, "form[data-seating]").forEach(whenOpen);
