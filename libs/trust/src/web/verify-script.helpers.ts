// The verification page's script, first part: the IIFE's opening and its pure helpers — RFC 8785
// canonicalization, the base64url and base58btc decoders, the did:key reader, the status-bit
// reader, the eddsa-jcs-2022 proof check and the envelope check — published on
// `window.__trustVerify` for the unit tests. They change with what a credential is and how it is
// signed. The page's own part (requests, the checks in order, rendering) is verify-script.page.ts;
// verify-page.ts joins the two (the IIFE closes in the second).
export const VERIFY_SCRIPT_HELPERS = String.raw`/* Seller trust credential verification: checks the eddsa-jcs-2022 proof over the whole credential,
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

`;
