import type { FlagDictionary, ThreatDictionary } from '@vigil/contracts';

/**
 * Threats the TLS and HTTP detections add to the inventory (a default Cobalt Strike certificate reuses the
 * established `c2_communication`). Merged into the threat dictionary next to the network and intel ones.
 */
export const WEB_THREATS: ThreatDictionary = {
  suspicious_tls_server: { title: 'Repeated TLS sessions to an Internet server with a self-signed, default, short-lived or otherwise suspicious certificate', severity: 3 },
  // Raised by earlier versions for single sessions; kept so that stored alerts still find their threat.
  self_signed_certificate: { title: 'TLS session with a self-signed certificate on an Internet server', severity: 2 },
  default_certificate: { title: 'TLS session with a default or placeholder certificate on an Internet server', severity: 3 },
  invalid_certificate_dates: { title: 'TLS session with an expired or not yet valid certificate', severity: 2 },
  executable_download: { title: 'Executable file downloaded from an unpopular destination', severity: 3 },
  attack_tool_user_agent: { title: 'HTTP requests by an attack or scanning tool, or carrying an exploit in the User-Agent', severity: 4 },
  obsolete_user_agent: { title: 'HTTP User-Agent of an obsolete browser, as hard-coded by malware', severity: 3 },
  lolbin_download: { title: 'Download by a built-in Windows tool (PowerShell, CertUtil, BITS) from an unpopular destination', severity: 3 },
  scripting_client: { title: 'Scripting HTTP client (curl, wget, Python, Go) contacting an unpopular destination', severity: 1, policy: true },
  raw_ip_url: { title: 'HTTP request to a raw Internet IP address instead of a host name', severity: 2 },
  paste_service_download: { title: 'Raw content fetched from a paste or anonymous file-drop service', severity: 3 },
};

/** Flags the TLS and HTTP detections attach in `wisdom` (besides the established `bad_ua` and `c2`). */
export const WEB_FLAGS: FlagDictionary = {
  suspicious_tls: { title: 'TLS server contacted repeatedly with suspicious certificate evidence', type: 'feature' },
  self_signed_cert: { title: 'Certificate signed by its own key (issuer equals subject)', type: 'feature' },
  default_cert: { title: 'Default, placeholder or test certificate', type: 'feature' },
  invalid_cert_dates: { title: 'Certificate expired or not yet valid', type: 'feature' },
  executable: { title: 'Executable or script file', type: 'feature' },
  raw_ip: { title: 'URL names an IP address instead of a host name', type: 'feature' },
  paste_site: { title: 'Paste or anonymous file-drop service', type: 'category' },
  lolbin: { title: 'Built-in operating system tool used to download', type: 'feature' },
  scripting_client: { title: 'Scripting or command-line HTTP client', type: 'feature' },
};
