/* The club evening's form: only the house rules of the rule system chosen are shown (seating.js). */
import { $$ } from "./page.js";
import { seating } from "./seating.js";

$$(document, "form[data-seating]").forEach(seating);
