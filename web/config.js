// What the chat learns as it loads, from the chat host (the origin these modules come
// from, whichever page they run on): config.json (the API, the currency and weight unit,
// the store's name, voice and colour, how long to wait for an answer) and names.json (the words for the names the API
// declares).

// Beside this module: on the hosted page that is the page's own origin; in the widget it
// is the chat host, not the store's page the widget runs on.
const CONFIG_URL = new URL("./config.json", import.meta.url);
const NAMES_URL = new URL("./names.json", import.meta.url);
const HEX_COLOUR = /^#[0-9a-f]{6}$/i;

export const page = {
  apiUrl: CONFIG_URL.origin,
  names: { errors: {}, outcomes: {}, fallbackReasons: {}, chips: {} },
  language: "en-US",
  currency: "USD",
  // Prices are in the store's currency (config.json's "currency"; US dollars until it is read).
  money: new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }),
  // Weights are in the store's unit (config.json's "weightUnit": "kg" or "lb").
  weightUnit: "kg",
  // "offline" or "replay" when a stand-in answers for the model (the dev server says so).
  model: null,
  // How long to wait for POST /query: config.json's "requestTimeoutMs" (shared/config/time_budget.py,
  // a little past the API's own limit, so the API's 504 is what the shopper sees). Without
  // config.json the page waits for the API's answer, which ends by that limit anyway.
  requestTimeoutMs: null,
  store: {
    name: "",
    assistantName: "Shopping assistant",
    greeting: "",
    suggestions: [],
    colors: null,
    // The pages that may call the API besides the chat host's own (the widget's check).
    allowedOrigins: [],
  },
};

export const count = new Intl.NumberFormat("en-US");

const text = (value, fallback) => (typeof value === "string" && value.trim() ? value.trim() : fallback);

function readStore(store) {
  if (!store || typeof store !== "object") return;
  page.store.name = text(store.name, page.store.name);
  page.store.assistantName = text(store.assistantName, page.store.assistantName);
  page.store.greeting = text(store.greeting, page.store.greeting);
  if (Array.isArray(store.suggestions)) {
    page.store.suggestions = store.suggestions.filter((s) => typeof s === "string" && s.trim()).slice(0, 4);
  }
  const colors = store.colors || {};
  if (HEX_COLOUR.test(colors.accent || "") && HEX_COLOUR.test(colors.onAccent || "")) {
    page.store.colors = { accent: colors.accent, onAccent: colors.onAccent };
  }
  if (Array.isArray(store.allowedOrigins)) {
    page.store.allowedOrigins = store.allowedOrigins.filter((o) => typeof o === "string");
  }
  if (typeof store.language === "string") {
    try {
      page.language = Intl.getCanonicalLocales(store.language)[0] || page.language;
    } catch {
      // Not a language tag: keep the default.
    }
  }
}

export async function loadConfig() {
  try {
    const response = await fetch(CONFIG_URL, { cache: "no-store", credentials: "omit" });
    const config = response.ok ? await response.json() : {};
    // "" (or none) is the chat host itself, as the dev server serves it.
    if (typeof config.apiUrl === "string") {
      page.apiUrl = new URL(config.apiUrl || "/", CONFIG_URL).href.replace(/\/+$/, "");
    }
    if (config.weightUnit === "kg" || config.weightUnit === "lb") page.weightUnit = config.weightUnit;
    if (typeof config.currency === "string" && /^[A-Z]{3}$/.test(config.currency)) {
      page.currency = config.currency;
    }
    readStore(config.store);
    if (config.model === "offline" || config.model === "replay") page.model = config.model;
    if (Number.isInteger(config.requestTimeoutMs) && config.requestTimeoutMs > 0) {
      page.requestTimeoutMs = config.requestTimeoutMs;
    }
  } catch {
    // No config: talk to the chat host, as the dev server expects.
  }
  page.money = new Intl.NumberFormat(page.language, { style: "currency", currency: page.currency });
}

export async function loadNames() {
  try {
    const response = await fetch(NAMES_URL, { cache: "no-store", credentials: "omit" });
    const names = response.ok ? await response.json() : null;
    for (const key of Object.keys(page.names)) {
      const table = names && names[key];
      if (table && typeof table === "object" && !Array.isArray(table)) page.names[key] = table;
    }
  } catch {
    // Without names.json answers and errors still show, with plainer words.
  }
}

/** Whether the API answers a page on `origin`: the chat host's own pages, and the store's. */
export function originAllowed(origin) {
  return origin === CONFIG_URL.origin || page.store.allowedOrigins.includes(origin);
}
