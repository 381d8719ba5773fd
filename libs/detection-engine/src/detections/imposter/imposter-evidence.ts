import type { ImposterMatch } from './brand-index';

/**
 * Evidence beyond string distance that a look-alike of a brand is an imposter, as weights of a score. String
 * distance alone flags a legitimate site for every few hundred unranked names (`feddit.dk`, `pcloud.com`,
 * `twitchy.com` are one edit from reddit, icloud, twitch); phishing look-alikes carry more: a disguise no
 * innocent name has (digits for letters), a much-phished brand, a lure word, a cheap TLD, and hosts that also
 * deal with the real brand.
 */
export interface ImposterWeights {
  /** Score at which a look-alike is reported. */
  threshold: number;
  /** Technique base scores. */
  homoglyphDigit: number;
  homoglyphLetters: number;
  bitsquat: number;
  typosquat: number;
  combosquat: number;
  /** The brand is among those phishing campaigns imitate most ({@link MUCH_PHISHED_BRANDS}). */
  muchPhishedBrand: number;
  /** The brand label has 8+ characters: one edit away from it, few innocent names exist. */
  longBrand: number;
  /** The brand label has 5 characters or fewer: many innocent names are one edit or glyph away. */
  shortBrand: number;
  /** A combosquat's word is only a weak lure (mail, web, online, service, ...), not a credential word. */
  weakLure: number;
  /**
   * A combosquat holds a word that is neither the brand nor a lure (`secure-hotel-booking`,
   * `kingsoft-office-service`): a name about something else that happens to contain the brand.
   */
  otherWords: number;
  /** A lure word (login, secure, verify, ...) in the subdomain (combosquats already need one). */
  lureSubdomain: number;
  /** The look-alike's TLD is among the most abused ones. */
  abusedTld: number;
  /** A plain typo that is a slip of the fingers ({@link ImposterMatch.typingSlip}). */
  typingSlip: number;
  /** The look-alike's TLD is another country's code, not the brand's (usually a local business). */
  otherTld: number;
  /**
   * The look-alike's TLD is a vanity gTLD (`.network`, `.foundation`): dearer than the cheap ones phishing kits
   * and typo-squatters buy, and the brand's users never type it by mistake; usually a project of its own.
   */
  vanityTld: number;
  /** The edit changes the first character. */
  firstCharacterEdit: number;
  /** The look-alike is the brand with one character appended (`mondays`, `twitchy`): a word of its own. */
  appendedCharacter: number;
  /** The same host looked up the real brand shortly before. */
  brandSeenByHost: number;
}

/** Chosen on the tuning split (tools/eval/imposter.ts): the validation slice of the rankings and tuning brands. */
export const DEFAULT_IMPOSTER_WEIGHTS: ImposterWeights = {
  threshold: 3,
  homoglyphDigit: 2,
  homoglyphLetters: 1,
  bitsquat: 1,
  // A plain one-edit typo says nothing by itself (pcloud/icloud, stripo/stripe); a slip of the fingers says a
  // little (goole, wlamart), and other evidence must carry the rest.
  typosquat: 0,
  typingSlip: 1,
  combosquat: 2,
  muchPhishedBrand: 2,
  longBrand: 1,
  shortBrand: 0,
  weakLure: -1,
  otherWords: -1,
  lureSubdomain: 1,
  abusedTld: 1,
  otherTld: -1,
  vanityTld: -1,
  firstCharacterEdit: 0,
  appendedCharacter: -1,
  brandSeenByHost: 1,
};

/**
 * Brands phishing campaigns imitate most, after public brand-phishing reports (APWG, vendors' quarterly
 * rankings): only those present among the popular domains' labels matter.
 */
export const MUCH_PHISHED_BRANDS: ReadonlySet<string> = new Set([
  'microsoft', 'office', 'office365', 'outlook', 'live', 'onedrive', 'sharepoint', 'google', 'gmail', 'youtube', 'apple',
  'icloud', 'amazon', 'paypal', 'facebook', 'instagram', 'whatsapp', 'netflix', 'linkedin', 'dhl', 'fedex', 'usps',
  'yahoo', 'adobe', 'dropbox', 'docusign', 'wellsfargo', 'chase', 'bankofamerica', 'citi', 'americanexpress',
  'coinbase', 'binance', 'metamask', 'steampowered', 'steamcommunity', 'roblox', 'spotify', 'ebay', 'walmart',
  'twitter', 'telegram', 'discord', 'zoom', 'booking', 'airbnb', 'alibaba', 'aliexpress', 'mercadolibre', 'rakuten',
  'santander', 'hsbc', 'barclays', 'verizon', 'xfinity', 'godaddy', 'wetransfer', 'github', 'openai', 'chatgpt',
  'tiktok', 'snapchat', 'twitch', 'epicgames', 'playstation', 'xbox', 'nintendo', 'samsung', 'shopify', 'stripe',
  'venmo', 'revolut', 'blockchain', 'kraken', 'ledger', 'norton', 'mcafee', 'intuit', 'salesforce', 'slack',
  'canva', 'expedia', 'uber', 'doordash', 'target', 'bestbuy', 'costco', 'ikea', 'nike', 'adidas',
]);

/** Lure words about credentials and money, as opposed to generic ones (mail, web, online, service). */
const CREDENTIAL_LURES: ReadonlySet<string> = new Set([
  'account', 'accounts', 'auth', 'billing', 'confirm', 'invoice', 'login', 'logon', 'password', 'payment', 'recovery',
  'refund', 'reset', 'secure', 'security', 'signin', 'sso', 'unlock', 'update', 'verify', 'verification', 'wallet',
]);

/** gTLDs anyone registers for anything: no sign either way. */
const GENERIC_TLDS: ReadonlySet<string> = new Set(['com', 'net', 'org', 'info', 'biz', 'co', 'io', 'app', 'me']);

/**
 * Cheap gTLDs that rank high in abuse reports (Spamhaus, Interisle) without being among the most abused
 * (the detector's abused TLDs): no sign either way, unlike other gTLDs.
 */
const CHEAP_TLDS: ReadonlySet<string> = new Set([
  'online', 'site', 'shop', 'store', 'website', 'space', 'fun', 'live', 'life', 'club', 'vip', 'today', 'world',
  'link', 'pro', 'mobi', 'tech', 'one', 'best', 'digital', 'email', 'services',
]);

export interface ImposterContext {
  match: ImposterMatch;
  /** The look-alike's registered domain and the brand's. */
  domain: string;
  brandDomain: string;
  /** Labels left of the look-alike's registered domain. */
  subdomain: string;
  brandSeenByHost: boolean;
  lureWords: ReadonlySet<string>;
  abusedTlds: ReadonlySet<string>;
}

export interface ImposterScore {
  score: number;
  /** The evidence that counted, for the finding (`much-phished brand +1`). */
  reasons: string[];
}

/** A combosquat token that is the brand in disguise (`micros0ft`): same length, a digit where the brand has a letter. */
function isDisguised(token: string, brand: string): boolean {
  if (token.length !== brand.length) return false;
  for (let i = 0; i < token.length; i++) if (token[i] !== brand[i] && !(token.charCodeAt(i) >= 0x30 && token.charCodeAt(i) <= 0x39)) return false;
  return true;
}

function suffixOf(domain: string): string {
  return domain.slice(domain.indexOf('.') + 1);
}

/** What the look-alike's TLD says: abused (for), another country's code or a vanity gTLD (against), or nothing. */
function tldEvidence(c: ImposterContext): { weight: 'abusedTld' | 'otherTld' | 'vanityTld'; reason: string } | undefined {
  const tld = c.domain.slice(c.domain.lastIndexOf('.') + 1);
  if (c.abusedTlds.has(tld)) return { weight: 'abusedTld', reason: `abused TLD .${tld}` };
  // The brand's own suffix, or one anyone buys for anything: no sign either way.
  if (GENERIC_TLDS.has(tld) || CHEAP_TLDS.has(tld) || suffixOf(c.domain) === suffixOf(c.brandDomain)) return undefined;
  if (tld.length === 2) return { weight: 'otherTld', reason: `country TLD .${tld}` };
  return /^[a-z]+$/.test(tld) ? { weight: 'vanityTld', reason: `vanity TLD .${tld}` } : undefined;
}

export function scoreImposter(c: ImposterContext, w: ImposterWeights = DEFAULT_IMPOSTER_WEIGHTS): ImposterScore {
  const reasons: string[] = [];
  let score = 0;
  const add = (weight: number, reason: string): void => {
    if (weight === 0) return;
    score += weight;
    reasons.push(`${reason} ${weight > 0 ? '+' : ''}${weight}`);
  };
  const { match } = c;
  const label = c.domain.slice(0, c.domain.indexOf('.'));
  if (match.technique === 'homoglyph') add(match.digitGlyph ? w.homoglyphDigit : w.homoglyphLetters, match.digitGlyph ? 'digits for letters' : 'look-alike letters');
  else if (match.technique === 'bitsquat') add(w.bitsquat, 'one flipped bit');
  else if (match.technique === 'typosquat') {
    add(w.typosquat, 'one typo');
    if (match.typingSlip) add(w.typingSlip, 'a slip of the fingers');
  }
  else add(w.combosquat, 'brand beside a lure word');
  if (match.technique === 'combosquat' && match.digitGlyph) add(w.homoglyphDigit - w.homoglyphLetters, 'digits for letters');
  if (MUCH_PHISHED_BRANDS.has(match.brand)) add(w.muchPhishedBrand, 'much-phished brand');
  if (match.brand.length >= 8) add(w.longBrand, 'long brand name');
  if (match.brand.length <= 5) add(w.shortBrand, 'short brand name');
  if (match.technique === 'combosquat') {
    const tokens = label.split('-');
    if (!tokens.some((t) => CREDENTIAL_LURES.has(t))) add(w.weakLure, 'weak lure word');
    if (tokens.some((t) => t !== match.brand && !c.lureWords.has(t) && !isDisguised(t, match.brand))) add(w.otherWords, 'words besides brand and lure');
  }
  if (match.firstCharacter) add(w.firstCharacterEdit, 'first character differs');
  if (label.length === match.brand.length + 1 && label.startsWith(match.brand)) add(w.appendedCharacter, 'brand with a letter appended');
  if (match.technique !== 'combosquat' && c.subdomain.split(/[.-]/).some((t) => c.lureWords.has(t))) add(w.lureSubdomain, 'lure word in the subdomain');
  const tld = tldEvidence(c);
  if (tld !== undefined) add(w[tld.weight], tld.reason);
  if (c.brandSeenByHost) add(w.brandSeenByHost, `host also looked up ${c.brandDomain}`);
  return { score, reasons };
}
