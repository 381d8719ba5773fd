import { BoundedMemo } from '../../bounded-memo';

/**
 * A compact list of User-Agent patterns, each with what it reveals. Attack tools announce themselves in
 * their default User-Agent; Windows' own downloaders (PowerShell, CertUtil, BITS) are how malware fetches its
 * next stage without dropping a tool of its own; scripting clients are routine for administrators and
 * developers (policy, not threat). Browsers and ordinary applications match nothing here.
 */
export type UserAgentKind = 'attack-tool' | 'exploit' | 'lolbin' | 'scripting';

export interface UserAgentPattern {
  kind: UserAgentKind;
  /** Display name, also the aggregation key. */
  name: string;
  pattern: RegExp;
}

export const USER_AGENT_PATTERNS: readonly UserAgentPattern[] = [
  // Payloads that exploit the server through the header itself.
  { kind: 'exploit', name: 'Log4Shell JNDI lookup', pattern: /\$\{\s*jndi\s*:|\$\{\s*\$\{\s*(?:lower|upper|::-|env)[^}]*\}/i },
  { kind: 'exploit', name: 'Shellshock function definition', pattern: /\(\)\s*\{\s*:?\s*;?\s*\}\s*;/ },
  // Scanners and attack tools (default User-Agents).
  { kind: 'attack-tool', name: 'sqlmap', pattern: /\bsqlmap\b/i },
  { kind: 'attack-tool', name: 'Nikto', pattern: /\bnikto\b/i },
  { kind: 'attack-tool', name: 'Nmap Scripting Engine', pattern: /\bnmap scripting engine\b/i },
  { kind: 'attack-tool', name: 'masscan', pattern: /\bmasscan\b/i },
  { kind: 'attack-tool', name: 'zgrab', pattern: /\bzgrab\b/i },
  { kind: 'attack-tool', name: 'Nuclei', pattern: /\bnuclei\b/i },
  { kind: 'attack-tool', name: 'gobuster', pattern: /\bgobuster\b/i },
  { kind: 'attack-tool', name: 'DirBuster', pattern: /\bdirbuster\b/i },
  { kind: 'attack-tool', name: 'ffuf', pattern: /fuzz faster u fool/i },
  { kind: 'attack-tool', name: 'wfuzz', pattern: /\bwfuzz\b/i },
  { kind: 'attack-tool', name: 'WPScan', pattern: /\bwpscan\b/i },
  { kind: 'attack-tool', name: 'Hydra', pattern: /\bmozilla\/4\.0 \(hydra\)|\bthc-hydra\b/i },
  { kind: 'attack-tool', name: 'Acunetix', pattern: /\bacunetix\b/i },
  { kind: 'attack-tool', name: 'Netsparker', pattern: /\bnetsparker\b/i },
  { kind: 'attack-tool', name: 'Havij', pattern: /\bhavij\b/i },
  { kind: 'attack-tool', name: 'commix', pattern: /\bcommix\b/i },
  { kind: 'attack-tool', name: 'w3af', pattern: /\bw3af\b/i },
  { kind: 'attack-tool', name: 'Arachni', pattern: /\barachni\b/i },
  { kind: 'attack-tool', name: 'OpenVAS', pattern: /\bopenvas\b/i },
  { kind: 'attack-tool', name: 'ZmEu', pattern: /\bzmeu\b/i },
  { kind: 'attack-tool', name: 'Morfeus scanner', pattern: /\bmorfeus\b/i },
  { kind: 'attack-tool', name: 'Jorgee', pattern: /\bjorgee\b/i },
  // Mirai-family scanners send this literal User-Agent.
  { kind: 'attack-tool', name: 'Mirai scanner', pattern: /^hello,? world$/i },
  // Built-in Windows downloaders.
  { kind: 'lolbin', name: 'PowerShell', pattern: /\bWindowsPowerShell\/|\bPowerShell\/\d/i },
  { kind: 'lolbin', name: 'CertUtil', pattern: /\bCertUtil URL Agent\b/i },
  { kind: 'lolbin', name: 'BITS', pattern: /^Microsoft BITS\//i },
  // Scripting and command-line clients.
  { kind: 'scripting', name: 'curl', pattern: /^curl\//i },
  { kind: 'scripting', name: 'Wget', pattern: /^wget\//i },
  { kind: 'scripting', name: 'Python', pattern: /^python-(?:requests|urllib\d?|httpx)\/|^Python-urllib\/|^aiohttp\//i },
  { kind: 'scripting', name: 'Go', pattern: /^Go-http-client\//i },
  { kind: 'scripting', name: 'Perl', pattern: /^libwww-perl\//i },
  { kind: 'scripting', name: 'Java', pattern: /^Java\/\d/i },
];

// A network sends a few hundred distinct User-Agents, each many times, and several detections classify the
// same one: a bounded memo keyed by the string. Strings over 512 characters are not kept.
const classifyCache = new BoundedMemo<UserAgentPattern | undefined>(2048, (ua) => firstMatchingPattern(ua), 512);

/** The first pattern the User-Agent matches, most telling kinds first (the list's order). */
export function classifyUserAgent(userAgent: string): UserAgentPattern | undefined {
  return classifyCache.get(userAgent);
}

function firstMatchingPattern(userAgent: string): UserAgentPattern | undefined {
  for (const entry of USER_AGENT_PATTERNS) if (entry.pattern.test(userAgent)) return entry;
  return undefined;
}

/**
 * The obsolete platform a User-Agent claims, if any: Internet Explorer 6 or older, or Windows 95/98/ME,
 * NT 4.0 or 2000. No supported system runs them; malware and old bots hard-code such strings.
 */
export function obsoletePlatform(userAgent: string): string | undefined {
  const msie = /\bMSIE (\d+)\.\d+/.exec(userAgent);
  if (msie !== null && Number(msie[1]) <= 6) return `Internet Explorer ${msie[1]}`;
  const windows = /\b(Windows (?:95|98|ME)|Win(?:95|98)|Windows NT (?:4\.0|5\.0))\b/.exec(userAgent);
  if (windows !== null) return windows[1] === 'Windows NT 5.0' ? 'Windows 2000' : windows[1];
  return undefined;
}
