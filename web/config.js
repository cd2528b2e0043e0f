// What the page learns as it loads: where the API is, the store's currency and weight
// unit (config.json), and the words for the names the API declares (names.json).

// Error codes, outcomes and fallback reasons, with their words, and the cards' chips come
// from the API's one declaration of them (shared/vocabulary.py), published beside the page.
const NAMES_URL = "./names.json";

export const page = {
  apiUrl: "",
  names: { errors: {}, outcomes: {}, fallbackReasons: {}, chips: {} },
  // Prices are in the store's currency (config.json's "currency"; US dollars until it is read).
  money: new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }),
  // Weights are in the store's unit (config.json's "weightUnit": "kg" or "lb").
  weightUnit: "kg",
  // "offline" or "replay" when a stand-in answers for the model (the dev server says so).
  model: null,
};

export const count = new Intl.NumberFormat("en-US");

export async function loadConfig() {
  try {
    const response = await fetch("./config.json", { cache: "no-store" });
    const config = response.ok ? await response.json() : {};
    if (typeof config.apiUrl === "string") page.apiUrl = config.apiUrl.replace(/\/+$/, "");
    if (typeof config.currency === "string" && /^[A-Z]{3}$/.test(config.currency)) {
      page.money = new Intl.NumberFormat("en-US", { style: "currency", currency: config.currency });
    }
    if (config.weightUnit === "kg" || config.weightUnit === "lb") page.weightUnit = config.weightUnit;
    if (config.model === "offline" || config.model === "replay") page.model = config.model;
  } catch {
    // No config: talk to the page's own origin, as the dev server expects.
  }
}

export async function loadNames() {
  try {
    const response = await fetch(NAMES_URL, { cache: "no-store" });
    const names = response.ok ? await response.json() : null;
    for (const key of Object.keys(page.names)) {
      const table = names && names[key];
      if (table && typeof table === "object" && !Array.isArray(table)) page.names[key] = table;
    }
  } catch {
    // Without names.json answers and errors still show, with plainer words.
  }
}
