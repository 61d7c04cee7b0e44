// The page's words: one table per language (texts/*.js, the same keys in
// each), `t(key, params)` to look a text up and fill in `{name}`, and
// `render(text)` for the server's texts ({key, params}, a parameter being
// a number, quoted words, or a text of its own, rendered first).

import en from "./texts/en.js";
import ru from "./texts/ru.js";
import kk from "./texts/kk.js";
import ky from "./texts/ky.js";
import fr from "./texts/fr.js";
import es from "./texts/es.js";

export const TABLES = { en, ru, kk, ky, fr, es };
export const LANGUAGES = Object.keys(TABLES);

let current = "en";

export function setLanguage(language) {
  current = TABLES[language] ? language : "en";
  return current;
}

export function language() {
  return current;
}

// The browser's first preferred language the page has, else English.
export function preferredLanguage() {
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (TABLES[base]) return base;
  }
  return "en";
}

export function t(key, params = {}) {
  const text = TABLES[current][key] ?? TABLES.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => {
    const value = params[name];
    if (value === undefined || value === null) return "";
    return typeof value === "object" ? render(value) : String(value);
  });
}

// A text the server sent.
export function render(text) {
  if (!text || typeof text !== "object") return String(text ?? "");
  return t(text.key, text.params ?? {});
}

// Fills every element marked with `data-t` (its text), `data-t-title`,
// `data-t-label` (aria-label) and `data-t-placeholder`.
export function translateTree(root) {
  for (const el of root.querySelectorAll("[data-t]")) el.textContent = t(el.dataset.t);
  for (const el of root.querySelectorAll("[data-t-title]")) el.title = t(el.dataset.tTitle);
  for (const el of root.querySelectorAll("[data-t-label]")) el.setAttribute("aria-label", t(el.dataset.tLabel));
}
