// The public verification page (GET /verify/<slug>) and its two static assets
// (/verify/assets/verify.js, /verify/assets/verify.css). The page does not take the server's
// word: the script fetches the credential in its standard form and re-checks it in the visitor's
// own browser with WebCrypto — the W3C Data Integrity eddsa-jcs-2022 proof over the whole
// credential (subject, issuer, validity period and status entry: nothing it reads is unsigned), by
// a published key whose did:key id names exactly that key, the issuer being that key's DID, and
// that what was signed is a seller trust credential as issued (its type, an id its subject names, a
// status entry naming its list); the SHA-256 of the published inputs;
// the validity period; and the Bitstring Status List bit, in a list whose own proof verifies — and
// only then says "verified".
// Built for a strict CSP (default-src 'self'; style-src 'self'): no inline script or style, every
// piece of data inserted with textContent. Pure string builders; the controllers serve them.
import { BADGE_PALETTES, BADGE_TIERS } from './badge';

export interface VerifyPageInput {
  slug: string;
  /** Prefix for the API's same-origin URLs (default ''): `${apiBase}/api/v1/trust/...`. */
  apiBase?: string;
}

export const VERIFY_SCRIPT_PATH = '/verify/assets/verify.js';
export const VERIFY_CSS_PATH = '/verify/assets/verify.css';

/** Text safe in HTML content and in double- or single-quoted attribute values. */
export function htmlEscape(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const CHECKS: ReadonlyArray<readonly [string, string]> = [
  ['signature', 'Signature'],
  ['inputs', 'Inputs'],
  ['validity', 'Validity period'],
  ['status', 'Revocation status'],
];

export function verifyPageHtml(input: VerifyPageInput): string {
  const slug = htmlEscape(input.slug);
  const apiBase = htmlEscape(input.apiBase ?? '');
  const credentialUrl = htmlEscape(`${input.apiBase ?? ''}/api/v1/trust/credential/${encodeURIComponent(input.slug)}`);
  const checks = CHECKS.map(
    ([id, name]) =>
      `<li data-check="${id}"><span class="mark" aria-hidden="true"></span>` +
      `<span class="check-name">${name}</span> <span class="check-result">checking…</span>` +
      `<span class="check-detail"></span></li>`,
  ).join('\n        ');
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <meta name="referrer" content="no-referrer">
  <title>Verify ${slug} — seller trust credential</title>
  <link rel="stylesheet" href="${VERIFY_CSS_PATH}">
  <script src="${VERIFY_SCRIPT_PATH}" defer></script>
</head>
<body>
  <main id="trust-verify" data-slug="${slug}" data-api-base="${apiBase}" data-state="checking">
    <p class="kicker">Seller trust credential · <span id="seller-slug">${slug}</span></p>
    <div class="card verdict-box" aria-live="polite" aria-atomic="true">
      <h1 id="verdict" data-state="checking">checking…</h1>
      <p id="verdict-detail">Checking the credential in your browser.</p>
      <p id="error" hidden></p>
    </div>
    <p id="error-hint" class="hint" hidden>Check the address, or ask the seller for their verification link.</p>
    <noscript><p class="card">This page checks the credential in your browser and needs JavaScript.
      The raw credential is at <a href="${credentialUrl}">${credentialUrl}</a>.</p></noscript>

    <section id="subject" class="card" aria-labelledby="seller-name" hidden>
      <h2 id="seller-name"></h2>
      <p class="score-line"><span id="score" class="score"></span> <span id="tier" class="tier"></span></p>
      <p class="muted">Score as of <time id="as-of"></time> · formula <code id="formula"></code> · <span id="inputs-count"></span></p>
    </section>

    <section id="checks-section" class="card" aria-labelledby="checks-heading">
      <h2 id="checks-heading">Checks made in your browser</h2>
      <ul id="checks">
        ${checks}
      </ul>
    </section>

    <section id="factors-section" class="card" aria-labelledby="factors-heading" hidden>
      <h2 id="factors-heading">How the score is made</h2>
      <div class="table-scroll">
        <table id="factors">
          <thead><tr><th scope="col">Factor</th><th scope="col">Value</th><th scope="col">Weight</th><th scope="col">Contribution</th></tr></thead>
          <tbody></tbody>
        </table>
      </div>
    </section>

    <section id="details-section" class="card" aria-labelledby="details-heading" hidden>
      <h2 id="details-heading">Credential</h2>
      <dl>
        <dt>Valid from</dt><dd><time id="valid-from"></time></dd>
        <dt>Valid until</dt><dd><time id="valid-until"></time></dd>
        <dt>Issuer</dt><dd><span id="issuer-name"></span> <code id="issuer-id"></code></dd>
        <dt>Signing key</dt><dd><code id="key-id"></code></dd>
        <dt>Credential id</dt><dd><code id="credential-id"></code></dd>
      </dl>
      <p class="links"><a id="link-credential" href="${credentialUrl}?proof=data-integrity">Credential (JSON)</a>
        <a id="link-inputs" href="${credentialUrl}/inputs">Inputs (JSON)</a>
        <a id="link-key" href="${apiBase}/api/v1/trust/public-key">Issuer keys (JSON)</a></p>
    </section>
  </main>
</body>
</html>
`;
}

/**
 * The page's script (served as text/javascript). One IIFE; its pure helpers (canonicalize, the
 * base64url and base58btc decoders, the did:key reader, the status-bit reader, the
 * eddsa-jcs-2022 proof check, given the keys document, and the envelope check) are also published on
 * `window.__trustVerify` so the unit tests can run them in a node `vm` context. Plain ES2020, no
 * template literals, no dependencies, only same-origin requests.
 */
export const VERIFY_PAGE_SCRIPT: string = String.raw`/* Seller trust credential verification: checks the eddsa-jcs-2022 proof over the whole credential,
   the inputs hash, the validity period and the revocation status (in a status list whose proof
   verifies too) in this browser (WebCrypto), then renders the verdict. Data is inserted with
   textContent only. */
(function (root) {
  'use strict';

  var TIERS = __TIERS__;
  var ISSUED_TYPE = '["VerifiableCredential","SellerTrustCredential"]';
  var B64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  var B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  var LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

  /* RFC 8785 (JCS): keys sorted by UTF-16 code units (the default sort), ECMAScript number and
     string serialization (JSON.stringify), no whitespace; non-finite numbers and lone surrogates
     are rejected. */
  function canonicalize(value) {
    if (value === null) return 'null';
    switch (typeof value) {
      case 'boolean':
        return value ? 'true' : 'false';
      case 'number':
        if (!isFinite(value)) throw new Error('JCS: non-finite number');
        return JSON.stringify(value);
      case 'string':
        if (LONE_SURROGATE.test(value)) throw new Error('JCS: lone surrogate');
        return JSON.stringify(value);
      case 'object':
        if (Array.isArray(value)) return '[' + value.map(canonicalize).join(',') + ']';
        return '{' + Object.keys(value).sort()
          .filter(function (k) { return value[k] !== undefined; })
          .map(function (k) { return canonicalize(k) + ':' + canonicalize(value[k]); })
          .join(',') + '}';
    }
    throw new TypeError('JCS: cannot serialize a ' + typeof value);
  }

  function base64urlToBytes(text) {
    var s = String(text).replace(/=+$/, '');
    if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) throw new Error('not base64url');
    var out = new Uint8Array(Math.floor(s.length * 3 / 4));
    var acc = 0, bits = 0, j = 0;
    for (var i = 0; i < s.length; i++) {
      acc = ((acc & 0xff) << 6) | B64URL.indexOf(s[i]);
      bits += 6;
      if (bits >= 8) { bits -= 8; out[j++] = (acc >> bits) & 0xff; }
    }
    return out;
  }

  /* base58btc (the Bitcoin alphabet): each leading '1' is a zero byte. */
  function base58btcToBytes(text) {
    var s = String(text), bytes = [], zeros = 0, i, j;
    while (zeros < s.length && s.charAt(zeros) === '1') zeros++;
    for (i = 0; i < s.length; i++) {
      var carry = B58.indexOf(s.charAt(i));
      if (carry < 0) throw new Error('not base58btc');
      for (j = 0; j < bytes.length; j++) {
        carry += bytes[j] * 58;
        bytes[j] = carry & 0xff;
        carry >>= 8;
      }
      while (carry > 0) { bytes.push(carry & 0xff); carry >>= 8; }
    }
    var out = new Uint8Array(zeros + bytes.length);
    for (i = 0; i < bytes.length; i++) out[out.length - 1 - i] = bytes[i];
    return out;
  }

  /* The raw Ed25519 key a did:key id names (did:key:z6Mk...#z6Mk...: multicodec 0xed 0x01 and the
     32 bytes, base58btc), or null. */
  function didKeyBytes(kid) {
    var m = /^did:key:z([1-9A-HJ-NP-Za-km-z]+)(?:#z([1-9A-HJ-NP-Za-km-z]+))?$/.exec(String(kid));
    if (!m || (m[2] !== undefined && m[2] !== m[1])) return null;
    var b = base58btcToBytes(m[1]);
    return b.length === 34 && b[0] === 0xed && b[1] === 0x01 ? b.slice(2) : null;
  }

  function sameBytes(a, b) {
    if (!a || !b || a.length !== b.length) return false;
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }

  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) {
      return (b < 16 ? '0' : '') + b.toString(16);
    }).join('');
  }

  /* Bitstring Status List: bit 0 is the most significant bit of the first byte. */
  function readBit(bytes, index) {
    if (!(index >= 0) || index >= bytes.length * 8) throw new Error('index ' + index + ' is outside the status list');
    return (bytes[index >> 3] >> (7 - (index & 7))) & 1;
  }

  function tierLabel(tier) {
    if (Object.prototype.hasOwnProperty.call(TIERS, tier)) return TIERS[tier];
    var words = String(tier).replace(/[_-]+/g, ' ').trim();
    return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Unrated';
  }

  function trades(n) { return n + (n === 1 ? ' trade' : ' trades'); }

  function isObject(v) { return v !== null && typeof v === 'object' && !Array.isArray(v); }

  function formatTime(value) {
    var ms = Date.parse(value);
    return isNaN(ms) ? String(value) : new Date(ms).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
  }

  function pass(detail) { return { ok: true, detail: detail }; }
  function fail(detail) { return { ok: false, detail: detail }; }

  function subtle() {
    if (!root.crypto || !root.crypto.subtle) throw new Error('this browser offers no WebCrypto here (it needs https)');
    return root.crypto.subtle;
  }

  function findKey(keyDoc, kid) {
    var keys = isObject(keyDoc) && Array.isArray(keyDoc.keys) ? keyDoc.keys : [];
    for (var i = 0; i < keys.length; i++) if (isObject(keys[i]) && keys[i].kid === kid) return keys[i];
    return isObject(keyDoc) && keyDoc.kid === kid ? keyDoc : null;
  }

  async function sha256(text) {
    return new Uint8Array(await subtle().digest('SHA-256', new TextEncoder().encode(text)));
  }

  /* W3C Data Integrity eddsa-jcs-2022 over a whole document (the credential or its status list),
     by one of the published keys (keyDoc: GET /public-key): the signature covers
     SHA-256(JCS(proof without proofValue, with the document's @context)) followed by
     SHA-256(JCS(document without proof)). Resolves to { ok, detail, key }; detail is lower-case,
     without a full stop. */
  async function verifyProof(doc, keyDoc, noun) {
    var proof = isObject(doc) ? doc.proof : null;
    if (!isObject(proof) || proof.type !== 'DataIntegrityProof' || proof.cryptosuite !== 'eddsa-jcs-2022' ||
        typeof proof.proofValue !== 'string' || typeof proof.verificationMethod !== 'string') {
      return fail('the ' + noun + ' carries no eddsa-jcs-2022 DataIntegrityProof');
    }
    if (proof.proofPurpose !== 'assertionMethod') return fail('the proof\u2019s purpose is not assertionMethod');
    var kid = proof.verificationMethod;
    var key = findKey(keyDoc, kid);
    if (!key) return fail('the signing key ' + kid + ' is not among the issuer\u2019s published keys');
    var raw = base64urlToBytes(key.publicKey || (key.jwk && key.jwk.x) || '');
    if (!sameBytes(didKeyBytes(kid), raw)) return fail('the published key is not the key its id ' + kid + ' names');
    var issuer = isObject(doc.issuer) ? doc.issuer.id : doc.issuer;
    if (issuer !== kid.split('#')[0]) return fail('the ' + noun + ' names the issuer ' + issuer + ' but is signed by ' + kid);
    var signature = /^z[1-9A-HJ-NP-Za-km-z]+$/.test(proof.proofValue) ? base58btcToBytes(proof.proofValue.slice(1)) : null;
    if (!signature || signature.length !== 64) return fail('the proof value is not a base58btc Ed25519 signature');
    var cryptoKey;
    try {
      cryptoKey = await subtle().importKey('raw', raw, { name: 'Ed25519' }, false, ['verify']);
    } catch (err) {
      return fail('this browser cannot check Ed25519 signatures (' + (err && err.message || err) + ')');
    }
    var unsecured = JSON.parse(JSON.stringify(doc));
    var config = JSON.parse(JSON.stringify(proof));
    delete unsecured.proof;
    delete config.proofValue;
    if (doc['@context'] !== undefined) config['@context'] = unsecured['@context'];
    var a = await sha256(canonicalize(config)), b = await sha256(canonicalize(unsecured));
    var hashData = new Uint8Array(a.length + b.length);
    hashData.set(a);
    hashData.set(b, a.length);
    if (!(await subtle().verify({ name: 'Ed25519' }, cryptoKey, signature, hashData))) {
      return fail('the Ed25519 signature does not match the ' + noun + ': it was changed after it was signed');
    }
    return { ok: true, detail: 'the eddsa-jcs-2022 proof over the whole ' + noun + ' verifies', key: key };
  }

  /* What a verified proof does not say by itself: that the document is a seller trust credential as
     the issuer makes them, not another document its key signed (a status list, say) — the issued
     type, a credential id its subject names, and a status entry naming its list. The issuer's DID
     is checked against the key in verifyProof. Returns { ok, detail }. */
  function checkEnvelope(credential) {
    var subject = isObject(credential.credentialSubject) ? credential.credentialSubject : {};
    var type = Array.isArray(credential.type) ? canonicalize(credential.type) : JSON.stringify(credential.type);
    if (type !== ISSUED_TYPE) return fail('it is not a seller trust credential (its type is ' + type + ')');
    if (typeof credential.id !== 'string' || !/^urn:uuid:[0-9a-fA-F-]{36}$/.test(credential.id)) return fail('its id is not a credential id (urn:uuid:\u2026)');
    if (subject.credentialId !== credential.id) return fail('its subject names the credential ' + subject.credentialId + ', not ' + credential.id);
    var entry = credential.credentialStatus;
    if (!isObject(entry) || entry.type !== 'BitstringStatusListEntry' || typeof entry.statusListCredential !== 'string' ||
        entry.id !== entry.statusListCredential + '#' + entry.statusListIndex) {
      return fail('it has no Bitstring Status List entry naming its list and bit');
    }
    return pass('a seller trust credential');
  }

  function sentence(text) { return text.charAt(0).toUpperCase() + text.slice(1) + '.'; }

  root.__trustVerify = {
    canonicalize: canonicalize, base64urlToBytes: base64urlToBytes, base58btcToBytes: base58btcToBytes, didKeyBytes: didKeyBytes,
    hex: hex, readBit: readBit, tierLabel: tierLabel, verifyProof: verifyProof, checkEnvelope: checkEnvelope,
  };

  var doc = root.document;
  var main = doc && doc.getElementById('trust-verify');
  if (!main) return;

  /* ---- network (same origin, bounded) ---- */

  function fetchOk(url) {
    var init = { credentials: 'same-origin', cache: 'no-store' };
    if (typeof AbortSignal !== 'undefined' && AbortSignal.timeout) init.signal = AbortSignal.timeout(15000);
    return fetch(url, init).then(function (res) {
      if (!res.ok) {
        var err = new Error(url + ' answered HTTP ' + res.status);
        err.status = res.status;
        throw err;
      }
      return res;
    }, function (err) {
      throw new Error('could not fetch ' + url + ' (' + (err && err.message || err) + ')');
    });
  }
  function getJson(url) { return fetchOk(url).then(function (res) { return res.json(); }); }
  function getBytes(url) { return fetchOk(url).then(function (res) { return res.arrayBuffer(); }); }

  function gunzip(bytes) {
    if (typeof DecompressionStream === 'undefined') throw new Error('this browser cannot decompress the status list');
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).arrayBuffer().then(function (b) { return new Uint8Array(b); });
  }

  /* ---- the four checks: each resolves to { ok, detail }, never rejects ---- */

  async function checkSignature(credential, keyDoc) {
    var result = await verifyProof(credential, await keyDoc(), 'credential');
    if (!result.ok) return fail(sentence(result.detail));
    var envelope = checkEnvelope(credential);
    if (!envelope.ok) return fail('The issuer\u2019s key signed it, but ' + envelope.detail + '.');
    var retired = result.key.status === 'retired' ? ' (a retired key, still valid for what it signed)' : '';
    return pass('The eddsa-jcs-2022 proof over the whole credential (validity period and status entry included) matches the issuer\u2019s key' + retired + '.');
  }

  async function checkInputs(credential, api, slug) {
    var subject = credential.credentialSubject;
    var m = /^sha256:([0-9a-fA-F]{64})$/.exec(String(subject.inputsHash));
    if (!m) return fail('The credential has no readable inputsHash.');
    var body = await getBytes(api + '/credential/' + encodeURIComponent(slug) + '/inputs');
    var digest = hex(await subtle().digest('SHA-256', body));
    if (digest !== m[1].toLowerCase()) {
      return fail('The published inputs hash to sha256:' + digest.slice(0, 16) + '\u2026, not the signed sha256:' + m[1].slice(0, 16) + '\u2026');
    }
    var inputs = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
    var count = isObject(inputs) && Array.isArray(inputs.trades) ? inputs.trades.length : -1;
    if (count !== subject.inputsCount) {
      return fail('The inputs list ' + count + ' trades but the credential says ' + subject.inputsCount + '.');
    }
    return pass('The ' + trades(count) + ' behind the score hash' + (count === 1 ? 'es' : '') + ' to the signed sha256:' + digest.slice(0, 16) + '\u2026');
  }

  function checkValidity(credential, now) {
    var from = credential.validFrom == null ? -Infinity : Date.parse(credential.validFrom);
    var until = credential.validUntil == null ? Infinity : Date.parse(credential.validUntil);
    if (isNaN(from) || isNaN(until)) return fail('The validity period is unreadable.');
    if (now < from) return fail('Not valid before ' + formatTime(credential.validFrom) + '.');
    if (now > until) return fail('Expired on ' + formatTime(credential.validUntil) + '.');
    return pass('Valid now' + (until < Infinity ? ', until ' + formatTime(credential.validUntil) : '') + '.');
  }

  async function checkStatus(credential, keyDoc, now) {
    var entry = credential.credentialStatus;
    if (!isObject(entry)) return fail('The credential has no status entry to check for revocation.');
    var index = String(entry.statusListIndex);
    if (!/^[0-9]+$/.test(index) || typeof entry.statusListCredential !== 'string') return fail('The status entry is malformed.');
    var path = new URL(entry.statusListCredential, root.location.href).pathname;
    var list = await getJson(path);
    var proof = await verifyProof(list, await keyDoc(), 'status list');
    if (!proof.ok) return fail('The status list signature does not verify (' + proof.detail + '), so its bits cannot be trusted.');
    var subject = isObject(list.credentialSubject) ? list.credentialSubject : {};
    if (typeof list.id !== 'string' || new URL(list.id, root.location.href).pathname !== path || subject.statusPurpose !== entry.statusPurpose) {
      return fail('The status list served is not the one the credential names.');
    }
    if (list.validUntil != null && !(now <= Date.parse(list.validUntil))) return fail('The status list expired on ' + formatTime(list.validUntil) + '.');
    var encoded = subject.encodedList;
    if (typeof encoded !== 'string' || encoded.charAt(0) !== 'u') return fail('The status list is not multibase base64url.');
    var bits = await gunzip(base64urlToBytes(encoded.slice(1)));
    var word = entry.statusPurpose === 'suspension' ? 'Suspended' : 'Revoked';
    if (readBit(bits, Number(index))) return fail(word + ': the issuer set bit ' + index + ' of its status list.');
    return pass('Not ' + word.toLowerCase() + ' (bit ' + index + ' of the issuer\u2019s status list is clear).');
  }

  function settle(promise) {
    return Promise.resolve().then(function () { return promise(); }).catch(function (err) {
      return fail('Could not check: ' + (err && err.message || err) + '.');
    });
  }

  /* ---- rendering (textContent only) ---- */

  function el(id) { return doc.getElementById(id); }
  function setText(id, text) { var node = el(id); if (node) node.textContent = text == null ? '' : String(text); }

  function setVerdict(state, detail) {
    var words = { verified: 'verified', 'not-verified': 'not verified', checking: 'checking\u2026' };
    el('verdict').setAttribute('data-state', state);
    main.setAttribute('data-state', state);
    setText('verdict', words[state]);
    setText('verdict-detail', detail);
  }

  function showCheck(name, result) {
    var item = doc.querySelector('li[data-check="' + name + '"]');
    item.setAttribute('data-ok', result.ok ? 'true' : 'false');
    item.querySelector('.check-result').textContent = result.ok ? 'passed' : 'failed';
    item.querySelector('.check-detail').textContent = result.detail;
  }

  function showCredential(credential) {
    var subject = credential.credentialSubject;
    var seller = isObject(subject.seller) ? subject.seller : {};
    var name = seller.name || seller.slug || 'This seller';
    doc.title = 'Verify ' + name + ' \u2014 seller trust credential';
    setText('seller-name', name);
    setText('score', typeof subject.score === 'number' ? subject.score + '/100' : 'New seller');
    setText('tier', tierLabel(subject.tier));
    el('tier').setAttribute('data-tier', String(subject.tier));
    setText('as-of', formatTime(subject.asOf));
    el('as-of').setAttribute('datetime', String(subject.asOf));
    setText('formula', subject.formula);
    setText('inputs-count', trades(subject.inputsCount));
    el('subject').hidden = false;

    var factors = Array.isArray(subject.factors) ? subject.factors : [];
    var body = el('factors').tBodies[0];
    factors.forEach(function (f) {
      var row = body.insertRow();
      [f.name, f.value, f.weight, f.contribution].forEach(function (v) {
        row.insertCell().textContent = v == null ? '' : String(v);
      });
    });
    el('factors-section').hidden = factors.length === 0;

    setText('valid-from', formatTime(credential.validFrom));
    el('valid-from').setAttribute('datetime', String(credential.validFrom));
    setText('valid-until', credential.validUntil == null ? 'no end date' : formatTime(credential.validUntil));
    el('valid-until').setAttribute('datetime', String(credential.validUntil));
    var issuer = isObject(credential.issuer) ? credential.issuer : { id: credential.issuer };
    setText('issuer-name', issuer.name);
    setText('issuer-id', issuer.id);
    setText('key-id', isObject(credential.proof) ? credential.proof.verificationMethod : 'none');
    setText('credential-id', credential.id);
    el('details-section').hidden = false;
  }

  function showError(message, notFound) {
    setVerdict('not-verified', '');
    el('verdict-detail').hidden = true;
    el('checks-section').hidden = true;
    setText('error', message);
    el('error').hidden = false;
    el('error-hint').hidden = !notFound;
  }

  async function run() {
    var slug = main.getAttribute('data-slug') || '';
    var api = (main.getAttribute('data-api-base') || '') + '/api/v1/trust';
    var credential, keys;
    function keyDoc() { return keys || (keys = getJson(api + '/public-key')); }
    try {
      credential = await getJson(api + '/credential/' + encodeURIComponent(slug) + '?proof=data-integrity');
    } catch (err) {
      if (err.status === 404) return showError('No credential for this seller.', true);
      return showError('Could not load the credential: ' + err.message + '.');
    }
    if (!isObject(credential) || !isObject(credential.credentialSubject)) return showError('The credential is malformed.');
    showCredential(credential);

    var now = Date.now();
    var checks = {
      signature: function () { return checkSignature(credential, keyDoc); },
      inputs: function () { return checkInputs(credential, api, slug); },
      validity: function () { return checkValidity(credential, now); },
      status: function () { return checkStatus(credential, keyDoc, now); },
    };
    var names = Object.keys(checks);
    var results = await Promise.all(names.map(function (name) {
      return settle(checks[name]).then(function (result) { showCheck(name, result); return result; });
    }));
    var failed = results.filter(function (r) { return !r.ok; }).length;
    if (failed === 0) setVerdict('verified', 'Every check passed in your browser: this is the issuer\u2019s credential, unchanged, current and not revoked.');
    else setVerdict('not-verified', failed + ' of ' + names.length + ' checks failed; see below.');
  }

  run().catch(function (err) { showError('Verification stopped: ' + (err && err.message || err)); });
})(typeof window !== 'undefined' ? window : globalThis);
`.replace('__TIERS__', JSON.stringify(BADGE_TIERS));

/** The page's colours. Text pairs used by the stylesheet are ≥ 4.5:1 (checked by the unit test). */
export const VERIFY_PAGE_PALETTES = Object.freeze({
  light: {
    bg: '#f6f8fa', card: '#ffffff', text: '#1f2328', muted: '#59636e', border: '#d0d7de', link: '#0550ae', 'code-bg': '#eef1f4',
    ok: '#1a7f37', 'ok-bg': '#dafbe1', bad: '#c4232d', 'bad-bg': '#ffebe9', wait: '#59636e', 'wait-bg': '#eef1f4',
  },
  dark: {
    bg: '#0d1117', card: '#161b22', text: '#e6edf3', muted: '#9198a1', border: '#30363d', link: '#6cb6ff', 'code-bg': '#262c36',
    ok: '#3fb950', 'ok-bg': '#12261e', bad: '#ff7b72', 'bad-bg': '#2d1519', wait: '#9198a1', 'wait-bg': '#1c2128',
  },
});

/** CSS custom properties for one theme: the page colours plus the badge's tier colours. */
function cssVariables(theme: 'light' | 'dark'): string {
  const vars = { ...VERIFY_PAGE_PALETTES[theme] } as Record<string, string>;
  for (const [tier, colour] of Object.entries(BADGE_PALETTES[theme].tiers)) vars[`tier-${tier}`] = colour;
  return Object.entries(vars)
    .map(([name, value]) => `--${name}: ${value};`)
    .join(' ');
}

const TIER_RULES = Object.keys(BADGE_TIERS)
  .map((tier) => `.tier[data-tier="${tier}"] { color: var(--tier-${tier}); border-color: currentColor; }`)
  .join('\n');

/** The page's stylesheet (served as text/css): system fonts, light and dark by preference. */
export const VERIFY_PAGE_CSS = `/* Seller trust credential verification page. */
:root { color-scheme: light dark; ${cssVariables('light')} }
@media (prefers-color-scheme: dark) {
  :root { ${cssVariables('dark')} }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body {
  margin: 0; background: var(--bg); color: var(--text);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
}
main { max-width: 46rem; margin: 0 auto; padding: 2rem 1rem 3rem; }
a { color: var(--link); }
code { font: 0.85em/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: var(--code-bg);
  padding: 0.1em 0.35em; border-radius: 4px; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 0 0 0.75rem; }
.kicker { margin: 0; color: var(--muted); font-size: 0.9rem; letter-spacing: 0.02em; }
.muted { color: var(--muted); margin: 0.25rem 0 0; font-size: 0.9rem; }
.card { background: var(--card); border: 1px solid var(--border); border-radius: 12px; padding: 1.1rem 1.4rem; margin: 1rem 0 0; }

.verdict-box { border-left: 6px solid var(--wait); background: var(--wait-bg); }
main[data-state="verified"] .verdict-box { border-left-color: var(--ok); background: var(--ok-bg); }
main[data-state="not-verified"] .verdict-box { border-left-color: var(--bad); background: var(--bad-bg); }
#verdict { margin: 0; font-size: 2rem; line-height: 1.2; color: var(--wait); }
#verdict[data-state="verified"] { color: var(--ok); }
#verdict[data-state="not-verified"] { color: var(--bad); }
#verdict[data-state="verified"]::before { content: "\\2713  "; content: "\\2713  " / ""; }
#verdict[data-state="not-verified"]::before { content: "\\2717  "; content: "\\2717  " / ""; }
#verdict-detail { margin: 0.35rem 0 0; }
#error { margin: 0.35rem 0 0; font-weight: 600; font-size: 1.1rem; }
.hint { color: var(--muted); margin: 0.75rem 0 0 0.25rem; }

#seller-name { font-size: 1.5rem; margin: 0; }
.score-line { margin: 0.25rem 0 0; display: flex; align-items: baseline; gap: 0.75rem; flex-wrap: wrap; }
.score { font-size: 2.25rem; font-weight: 700; }
.tier { font-weight: 600; padding: 0.1rem 0.6rem; border-radius: 999px; border: 1px solid var(--border); }
${TIER_RULES}

#checks { list-style: none; margin: 0; padding: 0; }
#checks li { display: grid; grid-template-columns: 1.5rem auto 1fr; column-gap: 0.5rem; padding: 0.55rem 0;
  border-top: 1px solid var(--border); align-items: baseline; }
#checks li:first-child { border-top: 0; }
.mark { font-weight: 700; color: var(--wait); }
.mark::before { content: "\\2026"; content: "\\2026" / ""; }
li[data-ok="true"] .mark { color: var(--ok); }
li[data-ok="true"] .mark::before { content: "\\2713"; content: "\\2713" / ""; }
li[data-ok="false"] .mark { color: var(--bad); }
li[data-ok="false"] .mark::before { content: "\\2717"; content: "\\2717" / ""; }
.check-name { font-weight: 600; }
.check-result { color: var(--muted); }
li[data-ok="true"] .check-result { color: var(--ok); }
li[data-ok="false"] .check-result { color: var(--bad); font-weight: 600; }
.check-detail { grid-column: 2 / -1; color: var(--muted); font-size: 0.92rem; overflow-wrap: anywhere; }

.table-scroll { overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: 0.45rem 0.6rem; border-bottom: 1px solid var(--border); }
th { color: var(--muted); font-weight: 600; font-size: 0.9rem; }
td:not(:first-child), th:not(:first-child) { text-align: right; }

dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.4rem 1rem; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
.links { display: flex; gap: 1rem; flex-wrap: wrap; margin: 1rem 0 0; font-size: 0.92rem; }
@media (max-width: 30rem) { dl { grid-template-columns: 1fr; } dd { margin-bottom: 0.5rem; } #verdict { font-size: 1.6rem; } }
`;
