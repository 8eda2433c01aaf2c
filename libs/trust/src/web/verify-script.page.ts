// The verification page's script, second part: what runs on the page — same-origin requests, the
// four checks (signature, inputs, validity, status) settled one by one, and rendering with
// textContent only — and the IIFE's close. It changes with the page's layout and wording. The
// helpers it calls are verify-script.helpers.ts.
export const VERIFY_SCRIPT_PAGE = String.raw`  var doc = root.document;
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
    var words = { verified: 'verified', 'not-verified': 'not verified', checking: 'checking\u2026', 'new-seller': 'new seller' };
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
    // The score is shown (large) only once every check passed: see showScore.
    setText('score', scoreText(subject));
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
    el('factors-section').hidden = true;

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

  function scoreText(subject) { return typeof subject.score === 'number' ? subject.score + '/100' : 'New seller'; }

  /* Verified: the score, large, with its factors. Not verified: what the credential claims, once,
     in small print, as a claim not to rely on — never the score in large type. */
  function showScore(credential, verified) {
    var subject = credential.credentialSubject;
    el('score-box').hidden = !verified;
    el('factors-section').hidden = !verified || !(Array.isArray(subject.factors) && subject.factors.length > 0);
    var claim = el('claimed');
    claim.hidden = verified;
    if (!verified) {
      var tier = tierLabel(subject.tier);
      var claims = typeof subject.score === 'number' ? 'a score of ' + scoreText(subject) + ' (' + tier + ')' : 'the tier ' + tier;
      claim.textContent = 'This credential claims ' + claims + ', but it did not verify: do not rely on it.';
    }
  }

  /* A seller the service knows, with no credential yet: nothing to verify, and nothing wrong. */
  function showNewSeller(name) {
    setVerdict('new-seller', name + ' is a new seller: no trade of theirs has completed yet, so there is no trust score to check. ' +
      'A seller gets a signed credential when their first trade completes.');
    el('checks-section').hidden = true;
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
      if (err.status === 404 && main.hasAttribute('data-new-seller')) return showNewSeller(main.getAttribute('data-new-seller') || slug);
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
    showScore(credential, failed === 0);
    if (failed === 0) setVerdict('verified', 'Every check passed in your browser: this is the issuer\u2019s credential, unchanged, current and not revoked.');
    else setVerdict('not-verified', failed + ' of ' + names.length + ' checks failed; see below.');
  }

  run().catch(function (err) { showError('Verification stopped: ' + (err && err.message || err)); });
})(typeof window !== 'undefined' ? window : globalThis);
`;
