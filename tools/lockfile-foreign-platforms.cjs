#!/usr/bin/env node
// The package registry reachable from our build machines lacks some platform-specific optional packages
// (e.g. @swc/core-darwin-arm64), so `npm install` leaves them out of package-lock.json and `npm ci` then
// refuses the lockfile as out of sync. This adds lockfile entries for those packages, marked optional and
// restricted to their own os/cpu, so `npm ci` skips them on Linux x64 without fetching and the same lockfile
// still serves other platforms. Run after `npm install` changes the lockfile.
const fs = require('node:fs');
const path = require('node:path');

const lockPath = path.join(__dirname, '..', 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony'];
const CPU = { arm64: 'arm64', x64: 'x64', ia32: 'ia32', arm: 'arm', ppc64: 'ppc64', s390x: 's390x', riscv64: 'riscv64', loong64: 'loong64' };

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p) => CPU[p]).find(Boolean);
  const libc = parts.includes('musl') || parts.includes('musleabihf') ? 'musl' : parts.includes('gnu') || parts.includes('gnueabihf') ? 'glibc' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const base = location === '' ? '' : location + '/';
    const nested = `${base}node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    if (packages[nested] || packages[hoisted]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os || !cpu) continue; // not a platform package: leave it to npm
    packages[hoisted] = {
      version: String(version).replace(/^[\^~=]/, ''),
      ...(entry.dev ? { dev: true } : {}),
      optional: true,
      os: [os],
      cpu: [cpu],
      ...(libc && os === 'linux' ? { libc: [libc] } : {}),
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)));
fs.writeFileSync(lockPath, JSON.stringify(lock, null, 2) + '\n');
console.log(`added ${added} foreign-platform optional entries to package-lock.json`);
