/**
 * Destination ports of services that ordinary clients use, with the protocol name sensors report. A port
 * outside this table is "unusual" for an outbound connection. Chosen from the IANA registry and the ports
 * common desktop, mobile, collaboration and infrastructure software document for outbound use.
 */
export const SERVICE_PORTS: Readonly<Record<number, string>> = {
  20: 'ftp-data', 21: 'ftp', 22: 'ssh', 23: 'telnet', 25: 'smtp', 43: 'whois', 53: 'dns', 67: 'dhcp', 68: 'dhcp',
  69: 'tftp', 80: 'http', 88: 'kerberos', 110: 'pop3', 119: 'nntp', 123: 'ntp', 135: 'msrpc', 137: 'netbios-ns',
  138: 'netbios-dgm', 139: 'netbios-ssn', 143: 'imap', 161: 'snmp', 162: 'snmptrap', 179: 'bgp', 389: 'ldap',
  443: 'https', 445: 'smb', 464: 'kpasswd', 465: 'smtps', 500: 'isakmp', 514: 'syslog', 515: 'printer',
  520: 'rip', 546: 'dhcpv6', 547: 'dhcpv6', 548: 'afp', 554: 'rtsp', 563: 'nntps', 587: 'submission',
  631: 'ipp', 636: 'ldaps', 853: 'dot', 873: 'rsync', 989: 'ftps-data', 990: 'ftps', 993: 'imaps', 995: 'pop3s',
  1194: 'openvpn', 1433: 'mssql', 1521: 'oracle', 1701: 'l2tp', 1723: 'pptp', 1812: 'radius', 1813: 'radius',
  1883: 'mqtt', 2049: 'nfs', 3268: 'ldap-gc', 3269: 'ldaps-gc', 3306: 'mysql', 3389: 'rdp', 3478: 'stun',
  3479: 'stun', 3480: 'stun', 3481: 'stun', 4500: 'ipsec-nat-t', 5060: 'sip', 5061: 'sips', 5222: 'xmpp',
  5223: 'apns', 5228: 'gcm', 5229: 'gcm', 5230: 'gcm', 5353: 'mdns', 5355: 'llmnr', 5432: 'postgresql',
  5900: 'vnc', 5938: 'teamviewer', 5985: 'winrm', 5986: 'winrm', 6443: 'kubernetes', 8080: 'http-alt',
  8443: 'https-alt', 8801: 'zoom', 8802: 'zoom', 8883: 'mqtts', 9000: 'http-alt', 9443: 'https-alt',
  19302: 'stun', 51820: 'wireguard',
};

/** Port → protocol name, or undefined for a port outside {@link SERVICE_PORTS}. */
export function serviceOfPort(port: number): string | undefined {
  return SERVICE_PORTS[port];
}
