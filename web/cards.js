// A product's card: its picture, kind, name, brand, price, stock, and the chips of the
// specs a shopper compares first (names.json's chips, from shared/catalog/specs.py).
// The name and the picture link to the product's page on the store, and a product that
// can be bought has "Add to cart": both links come made in the response (`url`,
// `cartUrl`: shared/store/store_links.py builds them from the catalog and the store's
// settings, never from the model's words), and are shown only if they are web addresses
// a shopper may follow (dom.js's safeLink). They open in the same tab: on the store's
// own pages the widget follows the shopper there.

import { count, page } from "./config.js";
import { el, lookup, safeLink } from "./dom.js";

const CATEGORY_LABELS = { COMPUTERS: "Computer", MOBILE: "Phone", BOOKS: "Book" };
const terabytes = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const kilograms = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const pounds = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });
const POUND_KG = 0.45359237;
// What catalogs write for a spec they do not know; shown, it would read as a fact.
const UNKNOWN_SPECS = new Set(["", "unknown", "n/a", "na", "none", "-", "?", "null", "undefined"]);

/** Storage as people write it: 512 GB, 1 TB, 1.5 TB. Catalogs give a terabyte as 1,000
 * GB or as 1,024 (a drive of 1,024 GB is sold as 1 TB): a multiple of 256 GB is binary. */
function storageText(gb) {
  if (gb < 1000) return `${count.format(gb)} GB`;
  return `${terabytes.format(gb % 256 === 0 ? gb / 1024 : gb / 1000)} TB`;
}

/** A weight in kilograms as a shopper reads it, in the store's unit (config.json's
 * "weightUnit"): 1.18 kg, or 2.6 lb in a store that sells in pounds. */
function weightText(kg) {
  const number = Number(kg);
  if (page.weightUnit === "lb") return `${pounds.format(number / POUND_KG)} lb`;
  return `${kilograms.format(number)} kg`;
}

/** Whether a spec says something: a number above 0 (a desktop's 0″ screen or 0 h
 * battery means it has none), or words other than the ones that mean "not known". */
function known(value) {
  if (typeof value === "number") return Number.isFinite(value) && value > 0;
  if (typeof value === "string") {
    const text = value.trim();
    if (text && Number.isFinite(Number(text))) return Number(text) > 0;
    return !UNKNOWN_SPECS.has(text.toLowerCase());
  }
  return value === true;
}

/** A chip's value as its format says: "number" as written, "count" with thousands
 * separators, "storage" in GB or TB, "text" as text. */
const CHIP_FORMATS = {
  number: (v) => `${v}`,
  count: (v) => count.format(v),
  storage: (v) => storageText(v),
  weight: (v) => weightText(v),
  text: (v) => String(v),
};

/** The few specs a shopper compares first, by category, leaving out what is not known:
 * the chips of the product's category, in order, as names.json publishes them (from the
 * catalog's vocabulary, shared/catalog/specs.py). */
function keySpecs(product) {
  const s = product.specs || {};
  const chips = lookup(page.names.chips, product.category);
  const specs = [];
  for (const chip of Array.isArray(chips) ? chips : []) {
    if (!chip || typeof chip.spec !== "string" || typeof chip.label !== "string") continue;
    const value = lookup(s, chip.spec);
    if (chip.format === "flag") {
      if (value === true) specs.push(chip.label);
      continue;
    }
    const format = lookup(CHIP_FORMATS, chip.format);
    if (format && known(value)) specs.push(chip.label.replace("{}", format(value)));
  }
  return specs.slice(0, 7);
}

/** Whether the store sells the product without counting it: in stock, no number shown. */
function uncounted(product) {
  return product.stockTracked === false;
}

function stockText(product) {
  if (uncounted(product)) return { text: "In stock", tone: "in" };
  const stock = product.stock;
  if (typeof stock !== "number") return null;
  if (stock <= 0) return { text: "Out of stock", tone: "out" };
  if (stock <= 5) return { text: `Only ${stock} left`, tone: "low" };
  return { text: "In stock", tone: "in" };
}

/**
 * The product's picture in a box of fixed proportions: the card keeps its size while the
 * picture loads, or if it never does. Loaded lazily; the name is its alternative text.
 */
function productImage(product, pageUrl) {
  const url = typeof product.imageUrl === "string" ? product.imageUrl : "";
  if (!/^https?:\/\//i.test(url)) return null;
  const image = el("img", {
    class: "card__image",
    src: url,
    alt: product.name || product.productId,
    loading: "lazy",
    decoding: "async",
    width: "400",
    height: "300",
  });
  // The picture links where the name does; the name's link is the one the keyboard and
  // assistive technology meet, so this one is left out of both.
  const box = pageUrl
    ? el("a", { class: "card__media", href: pageUrl, tabindex: "-1", "aria-hidden": "true" }, image)
    : el("div", { class: "card__media" }, image);
  // A picture that cannot load (gone, or from a host the page may not use) leaves the
  // empty box rather than a broken-image icon.
  image.addEventListener("error", () => { image.hidden = true; }, { once: true });
  return box;
}

/** "Add to cart", for a product in stock that the store can add by a link. */
function cartButton(product, name) {
  const url = safeLink(product.cartUrl);
  const buyable = uncounted(product) || (typeof product.stock === "number" && product.stock > 0);
  if (!url || !buyable) return null;
  return el("a", {
    class: "button button--primary card__cart",
    href: url,
    "aria-label": `Add ${name} to cart`,
    text: "Add to cart",
  });
}

/** The price, and on a product on sale the price before it, struck through. */
function priceTag(product) {
  const price = typeof product.price === "number" ? page.money.format(product.price) : "";
  const before = product.compareAtPrice;
  const tag = el("span", { class: "card__price", text: price });
  const onSale = typeof product.price === "number" && typeof before === "number"
    && before > product.price;
  if (!onSale) return tag;
  return el("span", { class: "card__prices" }, tag,
    el("span", { class: "visually-hidden", text: ", was " }),
    el("s", { class: "card__was", text: page.money.format(before) }));
}

export function productCard(product, id) {
  const stock = stockText(product);
  const formFactor = product.specs && product.specs.formFactor;
  const kind = [CATEGORY_LABELS[product.category] || product.category, formFactor]
    .filter(Boolean).join(" · ");
  const name = product.name || product.productId;
  const pageUrl = safeLink(product.url);
  return el("li", { class: "cards__item" },
    el("article", { class: "card", id, tabindex: "-1", "aria-labelledby": `${id}-name`,
      dataset: { productId: String(product.productId) } },
      productImage(product, pageUrl),
      el("p", { class: "card__kind", text: kind }),
      el("h3", { class: "card__name", id: `${id}-name` },
        pageUrl ? el("a", { class: "card__link", href: pageUrl, text: name }) : name),
      el("p", { class: "card__brand", text: product.brand || "" }),
      el("p", { class: "card__buy" },
        priceTag(product),
        stock && el("span", { class: `card__stock card__stock--${stock.tone}`, text: stock.text })),
      el("ul", { class: "card__specs", "aria-label": "Key specs" },
        keySpecs(product).map((spec) => el("li", { text: spec }))),
      cartButton(product, name),
      el("p", { class: "card__id", text: product.productId })));
}
