/**
 * electron-builder's `beforePack` hook (electron-builder.yml): refuses to pack a build whose
 * update feed is not https. The address comes from `RELAY_UPDATE_URL` at build time and is
 * written into the package's app-update.yml; the app refuses a plain-http feed too
 * (`electron/main/services/updates/support.ts`), so a build with one would never update.
 * Plain http is let through to this computer's own loopback only (a feed served locally to try a
 * release).
 */
'use strict';

function feedProblem(url) {
  if (url === undefined || url === '') return 'RELAY_UPDATE_URL is not set.';
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return `RELAY_UPDATE_URL (${url}) is not an address.`;
  }
  if (parsed.protocol === 'https:') return undefined;
  const loopback =
    parsed.hostname === 'localhost' ||
    parsed.hostname === '[::1]' ||
    /^127(\.\d{1,3}){3}$/.test(parsed.hostname);
  if (parsed.protocol === 'http:' && loopback) return undefined;
  return `RELAY_UPDATE_URL (${url}) is not an https address: the installed app would download and run its updates from it, so it must be https.`;
}

async function checkUpdateFeed() {
  const problem = feedProblem(process.env.RELAY_UPDATE_URL);
  if (problem !== undefined) throw new Error(problem);
}

module.exports = checkUpdateFeed;
module.exports.default = checkUpdateFeed;
module.exports.feedProblem = feedProblem;
