/**
 * The style of every DGA family of the shared training data, decided once from what its names look like (see
 * /work/shared/data/dga/README.md for the sources), so that leave-one-family-out results can be read by style.
 * A family missing here is an error: classify it when the data grows.
 */
export type DgaStyle = 'random' | 'pronounceable' | 'dictionary' | 'encoded';

export const STYLE_TITLES: Record<DgaStyle, string> = {
  random: 'random characters',
  pronounceable: 'pronounceable (consonant-vowel)',
  dictionary: 'dictionary / wordlist',
  encoded: 'hex / base32 / base64',
};

export const FAMILY_STYLES: Readonly<Record<string, { style: DgaStyle; looks: string }>> = {
  bazarbackdoor: { style: 'pronounceable', looks: 'extionom, ysogekiz: alternating consonant-vowel pairs' },
  bumblebee: { style: 'random', looks: 'cmid1s1zeiu: 11 random letters and digits' },
  chinad: { style: 'random', looks: '8f6bacmw30xxv6sc: 16 random letters and digits' },
  conficker: { style: 'random', looks: 'uhbqolxf: 4-11 random letters' },
  corebot: { style: 'random', looks: 'lkhylm0mhyfuhg: random letters and digits under ddns.net' },
  cryptolocker: { style: 'random', looks: 'ofdhiydrrttpblp: 12-15 random letters' },
  darkcracks: { style: 'random', looks: 'stdfugoagjl: random letters (shared tail)' },
  dircrypt: { style: 'random', looks: 'rauggyguyp: 8-20 random letters' },
  dmsniff: { style: 'random', looks: 'albdfhln: fixed prefix and random letters' },
  dnschanger: { style: 'random', looks: 'aktklyvbiu: 10 random letters' },
  fosniw: { style: 'dictionary', looks: 'koreasys0, winsoft61: a word and a counter' },
  goz: { style: 'random', looks: 'biaymnbqqshyllcqjlfhlj: 20-30 random letters' },
  kraken: { style: 'random', looks: 'ibbwnhgh: 6-11 random letters, some under dynamic DNS' },
  locky: { style: 'random', looks: 'gegjiimqmlgtdmk: random letters' },
  m0yv: { style: 'random', looks: 'cvgrf, pywolwnvd: 5-9 random letters' },
  monerodownloader: { style: 'encoded', looks: '31b4bd31fg1x2: 13 hex-like characters' },
  murofet: { style: 'random', looks: 'giywswshrgxcvoqgvrkthmfa: long random letters' },
  mydoom: { style: 'random', looks: 'qehspqnmrn: 10 letters from a small alphabet' },
  newgoz: { style: 'encoded', looks: 'xzz3ug32bale1uo60y7xj6rge: base-36 of an MD5 digest' },
  ngioweb: { style: 'pronounceable', looks: 'minihileth-subatudofy: made-up words from prefixes and syllables' },
  orchard: { style: 'encoded', looks: '867e6101: hex' },
  padcrypt: { style: 'random', looks: 'elkfcfnacacmofdf: 16 letters from a small alphabet' },
  pitou: { style: 'pronounceable', looks: 'koohoavab: syllables' },
  proslikefan: { style: 'random', looks: 'flarvcpk: 6-12 random letters' },
  pushdo: { style: 'pronounceable', looks: 'weafokuggeir, tagirsog: consonant-vowel syllables' },
  qadars: { style: 'random', looks: 'jk9enwhansl2: 12 random letters and digits' },
  qsnatch: { style: 'random', looks: 't2q2r, 7h1f3pv: 3-7 random letters and digits' },
  ramnit: { style: 'random', looks: 'knpqxlxcwtlvgrdyhd: 8-19 random letters' },
  ranbyus: { style: 'random', looks: 'ikwoqkwuajpbyx: 14-17 random letters' },
  reconyc: { style: 'random', looks: 'e5zhail0mw: 10 random letters and digits' },
  rovnix: { style: 'dictionary', looks: 'theirtheandaloneinto: words of the US Declaration of Independence' },
  sharkbot: { style: 'encoded', looks: '2fae36c0d5c7cab3, mjiymdiycg9qqkk5teh: hex and base64 of a date' },
  shiotob: { style: 'random', looks: 'rwmu35avqo12tqc: 10-15 random letters and digits' },
  sisron: { style: 'encoded', looks: 'mdiwnjiwmtya: base64 of a date' },
  symmi: { style: 'pronounceable', looks: 'ogovugtuipawi: consonant-vowel syllables' },
  tempedreve: { style: 'random', looks: 'dlbebsga: 7-9 random letters' },
  tufik: { style: 'random', looks: 'iztwlupysutnqqn: 15 random letters' },
  unnamed_downloader: { style: 'random', looks: 'ddknt: permutations of five letters' },
  vawtrak: { style: 'pronounceable', looks: 'usahwutle, folocnam: syllables' },
  verblecon: { style: 'encoded', looks: 'fd0ee78d1dbf4957b04cc6eb65feb97d: 32 hex digits' },
};

export function styleOf(family: string): DgaStyle {
  const entry = FAMILY_STYLES[family];
  if (entry === undefined) throw new Error(`DGA family ${family} has no style in tools/dga/family-styles.ts: classify it`);
  return entry.style;
}
