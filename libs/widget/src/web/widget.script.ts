// The want-list widget (GET /widget.js): hand-written browser JavaScript, no dependencies, no build
// step. `<script src="{base}/widget.js" data-seller="acme" data-theme="dark" async>` renders, in a
// shadow root right after the script tag, a want-list form: a row to add one card at a time (card
// name with catalogue suggestions, optional set, condition and max price), the list itself (one
// card per line, up to 25, typed or pasted as collectors keep them), email, optional note and a
// hidden honeypot. The first submit resolves the list against the catalogue
// ({base}/api/v1/public/sellers/<seller>/want-list/resolve) and shows each line as it will be
// asked for (corrections and errors per line); the second sends it (…/want-list) and shows one
// answer per line ("2 in stock now", "Not in stock yet: we will let you know"). Before any of it
// shows, the widget asks whether it works on this page (…/widget): a wrong `data-seller` or a page
// of an origin the seller did not allow gets a short neutral notice instead of a form, and the
// developer a console message saying what is wrong and how to fix it. Every refusal the routes can
// answer has a sentence a buyer understands (WIDGET_MESSAGES, below; prices as money in the shop's
// currency), never a raw validation text. Every request goes to
// the origin the script came from; nothing else is loaded. The host page's CSS cannot reach in
// (shadow root; `:host { all: initial !important }` stops inherited and !important styles on the
// host element), and the widget's CSS cannot leak out. Kept a String.raw template like the
// verification page's script, so the bytes served are exactly these (the build would rewrite a .js
// file): the conditions, the price ceiling and the messages are all that is put in, when the module loads.
import { RAW_GRADES } from '@app/catalog';
import { MAX_AMOUNT } from '@app/platform';

/** The raw condition scale, best first: [label, code]. Near Mint is preselected. */
export const WIDGET_CONDITIONS: ReadonlyArray<readonly [string, string]> = RAW_GRADES.map((g) => [g.label, g.code] as const);

/**
 * What a buyer (and, in the console, the seller's developer) is told: pure functions, no DOM, so
 * the unit tests run this part alone. `refusal` answers every code the widget's routes can send
 * (WIDGET_REFUSAL_CODES: the e2e test holds it to the OpenAPI document) with a sentence, and a
 * console line for the codes that mean the embed itself is wrong.
 */
export const WIDGET_MESSAGES = String.raw`  var UNAVAILABLE = 'Want lists aren\u2019t available on this page right now.';
  var RETRY = 'Your want list could not be sent. Please try again.';
  var LATER = 'The shop cannot take want lists just now. Please try again ';
  var OUR_END = 'Something went wrong at the shop\u2019s end. Please try again in a moment.';

  function money(amount, currency) {
    try { return new Intl.NumberFormat('en-US', { style: 'currency', currency: currency }).format(amount); }
    catch (e) { return Number(amount).toFixed(2) + ' ' + currency; }
  }

  function wait(seconds) {
    var s = Math.max(1, Math.ceil(Number(seconds) || 60));
    return s < 90 ? s + (s === 1 ? ' second' : ' seconds') : Math.round(s / 60) + ' minutes';
  }

  function later(d) { return LATER + (d && d.retry_after ? 'in ' + wait(d.retry_after) : 'later') + '.'; }

  // Every code the widget's routes answer: the buyer's sentence (d: the answer's details).
  var REFUSALS = {
    VALIDATION_FAILED: function () { return 'Some of your want list could not be read. Check it and try again.'; },
    INVALID_JSON: function () { return RETRY; },
    UNSUPPORTED_MEDIA_TYPE: function () { return RETRY; },
    METHOD_NOT_ALLOWED: function () { return RETRY; },
    URI_TOO_LONG: function () { return RETRY; },
    HEADERS_TOO_LARGE: function () { return RETRY; },
    PAYLOAD_TOO_LARGE: function () { return 'Your want list is too long to send. Shorten your note, or send fewer cards at a time.'; },
    REQUEST_TIMEOUT: function () { return 'Sending took too long. Please try again.'; },
    NOT_FOUND: function () { return UNAVAILABLE; },
    ORIGIN_NOT_ALLOWED: function () { return UNAVAILABLE; },
    RATE_LIMITED: function (d) { return 'Many want lists are being sent just now. Please try again in ' + wait(d.retry_after) + '.'; },
    STORAGE_FULL: later,
    STORAGE_READ_ONLY: later,
    STORAGE_CORRUPT: later,
    NOT_READY: later,
    INTERNAL: function () { return OUR_END; }
  };

  // The console line for the seller's developer, when the embed itself is wrong.
  function sellerHint(kind, seller, origin, base) {
    if (kind === 'ORIGIN_NOT_ALLOWED') {
      return 'Want-list widget: seller "' + seller + '" does not allow its widget on pages of ' + origin + ' (ORIGIN_NOT_ALLOWED), so buyers here see "' + UNAVAILABLE +
        '" To allow this page, add ' + origin + ' to the widget\u2019s allowed origins: in the portal (Widget settings), or PUT ' + base + '/api/v1/widget/settings {"allowedOrigins": [..., "' + origin + '"]}.';
    }
    if (kind === 'NOT_FOUND') {
      return 'Want-list widget: there is no seller "' + seller + '" (the data-seller of the <script> tag), so buyers here see "' + UNAVAILABLE +
        '" Use your workspace\u2019s slug: the portal\u2019s Widget settings (or GET ' + base + '/api/v1/widget/settings) show the snippet to paste.';
    }
    if (kind === 'CURRENCY') return 'Want-list widget: data-currency "' + seller + '" is not a 3-letter currency code such as USD, so buyers here see "' + UNAVAILABLE + '"';
    return 'Want-list widget: ' + kind;
  }

  // What to tell about an error answer ({status, body}): { text } for the buyer, { dev } for the console.
  function refusal(answer) {
    var b = answer.body || {};
    var dev = 'Want-list widget: unexpected answer ' + answer.status + (b.code ? ' ' + b.code : '') + (b.message ? ': ' + b.message : '');
    var say = Object.prototype.hasOwnProperty.call(REFUSALS, b.code) ? REFUSALS[b.code] : null;
    if (!say) return { text: answer.status >= 500 ? OUR_END : RETRY, dev: dev };
    var text = say(b.details || {});
    // A refusal no buyer can cause (a malformed request) is a bug to tell the developer about.
    return text === RETRY ? { text: text, code: b.code, dev: dev } : { text: text, code: b.code };
  }

  // A price as typed ("1,250.50", "1.250,50", "12,5", "$40"): a number, or what to fix (a sentence).
  function priceOf(text, currency, max) {
    var t = text.replace(/[\s$€£¥]/g, '');
    // Grouped thousands: 1,250 and 1,250.50; 1.250,50 and 1.250.000 (one dot alone is a decimal point).
    if (/^\d{1,3}(,\d{3})+(\.\d*)?$/.test(t)) t = t.replace(/,/g, '');
    else if (/^\d{1,3}(\.\d{3})+,\d*$|^\d{1,3}(\.\d{3}){2,}$/.test(t)) t = t.replace(/\./g, '').replace(',', '.');
    else t = t.replace(',', '.');
    var amount = /^(\d+\.?\d*|\.\d+)$/.test(t) ? Number(t) : NaN;
    if (!isFinite(amount)) return 'Enter a price as a number, like 25 or 12.50.';
    if (amount <= 0) return 'Enter a price above 0, like 25 or 12.50.';
    if (amount > max) return 'Enter a price up to ' + money(max, currency) + '.';
    if (Math.round(amount * 100) !== Math.round(amount * 100 * 1000) / 1000) return 'Use at most 2 decimals.';
    return amount;
  }

  // What a field takes, for a refusal whose own text is not for people (zod's wording, say).
  function fieldHint(field, currency, max) {
    var hints = {
      maxPrice: 'Enter a price from ' + money(0.01, currency) + ' to ' + money(max, currency) + ', or none for any price.',
      cardName: 'Enter the card you are looking for.',
      setName: 'Enter the set, or none for any printing.',
      condition: 'Choose a condition from the list.',
      quantity: 'Enter how many you want, from 1 to 99.',
      email: 'Enter a valid email address, like name@example.com.',
      note: 'Shorten your note to 500 characters.',
      text: 'Check your list: one card per line, up to 25.'
    };
    return Object.prototype.hasOwnProperty.call(hints, field) ? hints[field] : 'Check this field.';
  }

  // A field's refusal as the buyer reads it, as a sentence: the server's own, unless it is a
  // validator's wording or the text rule's (code points), which say nothing to a buyer.
  function issueText(message, field, currency, max) {
    var text = String(message || '');
    if (/^(the key itself )?contains U\+/.test(text)) return 'Remove the invisible control characters (they often come with copied text).';
    if (!text || /^(Invalid|Too (big|small)|Expected|Unrecognized|Required)\b|expected .+, received|[<>]=?\s?-?\d/.test(text)) return fieldHint(field, currency, max);
    return /[.!?]$/.test(text) ? text : text + '.';
  }
`;

/** The codes `refusal` has a sentence for. */
export const WIDGET_REFUSAL_CODES: readonly string[] = [...WIDGET_MESSAGES.matchAll(/^ {4}([A-Z_]+): /gm)].map((m) => m[1]);

const TEMPLATE = String.raw`/* Want-list widget. Embed: <script src=".../widget.js" data-seller="your-slug" data-theme="light|dark|auto" async></script> */
(function () {
  'use strict';
  var CONDITIONS = __CONDITIONS__;
  var MAX_PRICE = __MAX_PRICE__;
__MESSAGES__
  var CSS =
    ':host{all:initial!important;display:block!important;contain:content}' +
    '.w{--bg:#fff;--fg:#1b1f27;--mut:#596170;--bd:#d9dde4;--in:#fff;--inb:#aeb6c3;--ac:#2452d1;--acf:#fff;--err:#b3261e;--ok:#0b6b3a;--okbg:#e6f4ea;' +
    'display:block;box-sizing:border-box;max-width:440px;margin:0;padding:20px;border:1px solid var(--bd);border-radius:12px;background:var(--bg);color:var(--fg);' +
    'font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;text-align:left;letter-spacing:normal;text-transform:none}' +
    '.dark{--bg:#15181e;--fg:#e9ecf1;--mut:#a6aebb;--bd:#2e3440;--in:#1d2129;--inb:#4b5463;--ac:#7aa2ff;--acf:#0c0f14;--err:#ffb4ab;--ok:#7fdca0;--okbg:#133122}' +
    '@media (prefers-color-scheme:dark){.auto{--bg:#15181e;--fg:#e9ecf1;--mut:#a6aebb;--bd:#2e3440;--in:#1d2129;--inb:#4b5463;--ac:#7aa2ff;--acf:#0c0f14;--err:#ffb4ab;--ok:#7fdca0;--okbg:#133122}}' +
    '.w *{box-sizing:border-box;margin:0;font:inherit;color:inherit}' +
    '.w h2{font-size:18px;font-weight:650;line-height:1.3}' +
    '.w .sub{color:var(--mut);font-size:13.5px;margin:4px 0 14px}' +
    '.w .f{display:flex;flex-direction:column;gap:4px;margin-bottom:12px;min-width:0}' +
    '.w .row{display:flex;gap:12px}.w .row>.f{flex:1 1 0}' +
    '.w label{font-size:13px;font-weight:600}.w .opt{font-weight:400;color:var(--mut)}' +
    '.w input,.w select,.w textarea{width:100%;padding:8px 10px;border:1px solid var(--inb);border-radius:8px;background:var(--in);color:var(--fg);font-size:15px;line-height:1.3}' +
    '.w textarea{resize:vertical;min-height:56px}' +
    '.w input:focus-visible,.w select:focus-visible,.w textarea:focus-visible,.w button:focus-visible,.w .done:focus-visible{outline:2px solid var(--ac);outline-offset:2px}' +
    '.w [aria-invalid=true]{border-color:var(--err)}' +
    '.w .e{color:var(--err);font-size:12.5px;min-height:0}.w .e:empty{display:none}' +
    '.w button{display:inline-block;width:100%;padding:10px 14px;border:0;border-radius:8px;background:var(--ac);color:var(--acf);font-weight:650;cursor:pointer}' +
    '.w button[disabled]{opacity:.6;cursor:progress}' +
    '.w .alert{color:var(--err);font-size:13.5px;margin-top:10px}.w .alert:empty{display:none}' +
    '.w .status{color:var(--mut);font-size:13px;margin-top:8px}.w .status:empty{display:none}' +
    '.w .hp{position:absolute!important;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}' +
    '.w .done{border-radius:8px}.w .done:focus-visible{outline-offset:6px}.w .done h2{margin-bottom:6px}' +
    '.w fieldset.add{border:1px dashed var(--bd);border-radius:10px;padding:10px 12px 0;margin:0 0 12px}.w legend{font-size:13px;font-weight:650;padding:0 4px}' +
    '.w .row.end{align-items:flex-start}.w .row.end>.sec{flex:0 0 auto;margin-top:23px}' +
    '.w .sec{width:auto;background:none;color:var(--ac);border:1px solid var(--ac);padding:7px 12px}' +
    '.w .hint{color:var(--mut);font-size:12.5px}' +
    '.w h3{font-size:14px;font-weight:650;margin:0 0 6px}.w .preview{margin:0 0 12px}' +
    '.w .lines{list-style:none;padding:0;margin:6px 0 12px;display:flex;flex-direction:column;gap:6px}' +
    '.w .lines li{border:1px solid var(--bd);border-radius:8px;padding:6px 10px;display:flex;flex-direction:column;gap:2px}' +
    '.w .lines .what{font-weight:600;font-size:14px}.w .lines .why{color:var(--mut);font-size:12.5px}' +
    '.w .lines .bad{border-color:var(--err)}.w .lines .bad .why{color:var(--err)}.w .lines .ok .why{color:var(--ok);font-weight:650}' +
    '.w .lines .warn .why{color:var(--fg)}' +
    '.w .link{background:none;color:var(--ac);padding:0;width:auto;font-weight:600;text-decoration:underline}' +
    '.w.na{color:var(--mut);font-size:14px;padding:12px 16px}' +
    '[hidden]{display:none!important}' +
    '@media (max-width:360px){.w .row{flex-direction:column;gap:0}}';

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var name in attrs) if (Object.prototype.hasOwnProperty.call(attrs, name)) node.setAttribute(name, attrs[name]);
    if (text) node.textContent = text;
    return node;
  }

  function field(id, label, control, optional) {
    var box = el('div', { class: 'f' });
    var lab = el('label', { for: id }, label);
    if (optional) lab.appendChild(el('span', { class: 'opt' }, ' (optional)'));
    box.appendChild(lab);
    box.appendChild(control);
    var error = el('p', { class: 'e', id: id + '-error' });
    control.setAttribute('aria-describedby', id + '-error');
    box.appendChild(error);
    return box;
  }

  function mount(script) {
    var seller = (script.getAttribute('data-seller') || '').trim();
    var themeName = script.getAttribute('data-theme');
    var theme = themeName === 'dark' || themeName === 'auto' ? themeName : 'light';
    var currency = (script.getAttribute('data-currency') || 'USD').trim().toUpperCase();
    var src = new URL(script.src, document.baseURI);
    var base = src.origin + src.pathname.replace(/\/widget\.js$/, '');
    var api = base + '/api/v1/public/sellers/' + encodeURIComponent(seller);

    var host = el('div', { 'data-want-list-widget': seller });
    script.parentNode.insertBefore(host, script.nextSibling);
    var root = host.attachShadow({ mode: 'open' });
    root.appendChild(el('style', {}, CSS));
    // Nothing shows until the shop says the widget works on this page (see check below).
    var box = el('div', { class: 'w ' + theme, part: 'widget', hidden: '' });
    root.appendChild(box);

    var form = el('form', { novalidate: '', 'aria-label': 'Want list' });
    form.appendChild(el('h2', {}, 'Looking for cards?'));
    form.appendChild(el('p', { class: 'sub' }, 'Tell us what you want, one card per line. We check our stock at once and let you know.'));

    // One card at a time, with the catalogue's suggestions: "Add to list" writes it as a line.
    var adder = el('fieldset', { class: 'add' });
    adder.appendChild(el('legend', {}, 'Add a card'));
    var card = el('input', { id: 'card', name: 'cardName', list: 'card-list', autocomplete: 'off', maxlength: '200', spellcheck: 'false' });
    var cardList = el('datalist', { id: 'card-list' });
    var cardField = field('card', 'Card name', card);
    cardField.appendChild(cardList);
    adder.appendChild(cardField);

    var row = el('div', { class: 'row' });
    var set = el('input', { id: 'set', name: 'setName', list: 'set-list', autocomplete: 'off', maxlength: '200', placeholder: 'Any set' });
    var setList = el('datalist', { id: 'set-list' });
    var setField = field('set', 'Set', set, true);
    setField.appendChild(setList);
    row.appendChild(setField);
    var condition = el('select', { id: 'condition', name: 'condition' });
    condition.appendChild(el('option', { value: '' }, 'Any condition'));
    CONDITIONS.forEach(function (c) { condition.appendChild(el('option', { value: c[0] }, c[0] + ' (' + c[1] + ')')); });
    row.appendChild(field('condition', 'Condition (at least)', condition));
    adder.appendChild(row);
    var row2 = el('div', { class: 'row end' });
    var price = el('input', { id: 'price', name: 'maxPrice', inputmode: 'decimal', autocomplete: 'off', maxlength: '20', placeholder: 'Any price' });
    row2.appendChild(field('price', 'Max price (' + currency + ')', price, true));
    var add = el('button', { type: 'button', class: 'sec', id: 'add' }, 'Add to list');
    row2.appendChild(add);
    adder.appendChild(row2);
    form.appendChild(adder);

    var list = el('textarea', { id: 'list', name: 'list', rows: '4', maxlength: '9000', spellcheck: 'false', placeholder: '4 Charizard Base NM\nPikachu (Jungle) LP $12' });
    var listField = field('list', 'Your want list', list);
    listField.insertBefore(el('p', { class: 'hint', id: 'list-hint' }, 'One card per line, up to 25. Set, condition and price are optional: paste your list as you keep it.'), list);
    list.setAttribute('aria-describedby', 'list-hint list-error');
    form.appendChild(listField);

    var preview = el('div', { class: 'preview', hidden: '' });
    var previewTitle = el('h3', { tabindex: '-1' }, 'Check your list');
    var previewLines = el('ol', { class: 'lines' });
    preview.appendChild(previewTitle);
    preview.appendChild(previewLines);
    form.appendChild(preview);

    var email = el('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email', maxlength: '254', required: '' });
    form.appendChild(field('email', 'Your email', email));
    var note = el('textarea', { id: 'note', name: 'note', rows: '2', maxlength: '500' });
    form.appendChild(field('note', 'Note', note, true));

    // The honeypot: out of sight, out of the tab order, hidden from assistive technology.
    var trap = el('div', { class: 'hp', 'aria-hidden': 'true' });
    trap.appendChild(el('label', { for: 'website' }, 'Website'));
    var website = el('input', { id: 'website', name: 'website', tabindex: '-1', autocomplete: 'off' });
    trap.appendChild(website);
    form.appendChild(trap);

    var send = el('button', { type: 'submit' }, 'Check my list');
    form.appendChild(send);
    var status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    var alertBox = el('p', { class: 'alert', role: 'alert' });
    form.appendChild(status);
    form.appendChild(alertBox);
    box.appendChild(form);

    var done = el('div', { class: 'done', tabindex: '-1', hidden: '' });
    var doneTitle = el('h2', {}, 'Thanks, we have your want list');
    var doneLines = el('ul', { class: 'lines answers' });
    var doneText = el('p', { class: 'sub' });
    var again = el('button', { type: 'button', class: 'link' }, 'Send another list');
    done.appendChild(doneTitle);
    done.appendChild(doneLines);
    done.appendChild(doneText);
    done.appendChild(again);
    box.appendChild(done);

    var inputs = { cardName: card, setName: set, condition: condition, maxPrice: price, list: list, email: email, note: note, text: list };

    // Whether the widget works on this page: { ok } when it does (or the shop cannot say: the form
    // is shown, and sending says what went wrong), else { kind, origin } (why not).
    function check() {
      return fetch(api + '/widget', { credentials: 'omit', cache: 'no-store' })
        .then(function (r) {
          if (!r.ok && r.status !== 404 && r.status !== 400) return { ok: true };
          return r.json().then(function (b) {
            var d = (b && b.details) || {};
            // The shop's own 404 names the seller it does not know (a 400, a slug no seller can have); any other is not about the seller.
            if (r.status === 404) return d.seller !== undefined ? { kind: 'NOT_FOUND' } : { ok: true };
            if (r.status === 400) return (d.issues || []).some(function (i) { return i.path === 'slug'; }) ? { kind: 'NOT_FOUND' } : { ok: true };
            return b && b.available === false ? { kind: b.reason || 'ORIGIN_NOT_ALLOWED', origin: b.origin || location.origin } : { ok: true };
          });
        })
        .catch(function () { return { ok: true, offline: true }; });
    }

    // The buyer gets one neutral sentence; the seller's developer, in the console, what is wrong and how to fix it.
    function unavailable(kind, origin) {
      console.error(sellerHint(kind, kind === 'CURRENCY' ? currency : seller, origin, base));
      while (box.firstChild) box.removeChild(box.firstChild);
      box.className = 'w na ' + theme;
      box.appendChild(el('p', { role: 'status' }, UNAVAILABLE));
      box.hidden = false;
    }

    if (!/^[A-Z]{3}$/.test(currency)) return unavailable('CURRENCY');
    var shown = false;
    function show(state) {
      if (shown) return;
      shown = true;
      if (state && !state.ok) return unavailable(state.kind, state.origin);
      box.hidden = false;
    }
    // A shop that does not answer within 5 seconds does not hold the form back.
    setTimeout(show, 5000);
    check().then(show);

    var setsOf = {};
    var timer = null;
    var pending = null;
    // The list as last resolved (its text and lines): sent only while the text is still that one.
    var resolved = null;

    function fill(dl, values) {
      while (dl.firstChild) dl.removeChild(dl.firstChild);
      values.forEach(function (v) { dl.appendChild(el('option', { value: v })); });
    }

    function showSets() {
      var sets = setsOf[card.value.trim().toLowerCase()];
      if (sets) fill(setList, sets);
    }

    card.addEventListener('input', function () {
      showSets();
      clearTimeout(timer);
      var q = card.value.trim();
      if (q.length < 2) return;
      timer = setTimeout(function () {
        if (pending) pending.abort();
        pending = typeof AbortController === 'function' ? new AbortController() : null;
        fetch(api + '/card-suggestions?q=' + encodeURIComponent(q), { credentials: 'omit', signal: pending ? pending.signal : undefined })
          .then(function (r) { return r.ok ? r.json() : { data: [] }; })
          .then(function (body) {
            var names = [];
            (body.data || []).forEach(function (s) {
              names.push(s.cardName);
              setsOf[s.cardName.toLowerCase()] = s.sets || [];
            });
            fill(cardList, names);
            showSets();
          })
          .catch(function () { /* suggestions are a help, never an error */ });
      }, 180);
    });
    card.addEventListener('change', showSets);

    function setError(input, message) {
      var error = root.getElementById(input.id + '-error');
      if (message) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      if (error) error.textContent = message || '';
    }

    function clearErrors() {
      for (var name in inputs) setError(inputs[name], '');
      alertBox.textContent = '';
    }

    function amountOf(text) { return priceOf(text, currency, MAX_PRICE); }

    // The card row as one line of the list: "Card (Set) Condition max 12".
    function lineOfRow() {
      var text = card.value.trim();
      if (set.value.trim()) text += ' (' + set.value.trim().replace(/[()\[\]]/g, ' ') + ')';
      if (condition.value) text += ' ' + condition.value;
      if (price.value.trim()) text += ' max ' + amountOf(price.value);
      return text;
    }

    function checkRow() {
      var problems = [];
      if (!card.value.trim()) problems.push([card, 'Enter the card you are looking for.']);
      if (price.value.trim()) {
        var amount = amountOf(price.value);
        if (typeof amount === 'string') problems.push([price, amount]);
      }
      return problems;
    }

    function addRow() {
      var problems = checkRow();
      if (problems.length) return report(problems), false;
      list.value = (list.value.replace(/\s+$/, '') ? list.value.replace(/\s+$/, '') + '\n' : '') + lineOfRow();
      card.value = '';
      set.value = '';
      condition.value = '';
      price.value = '';
      status.textContent = 'Added to your list.';
      return true;
    }

    add.addEventListener('click', function () {
      clearErrors();
      if (addRow()) card.focus();
    });
    [card, set, price].forEach(function (input) {
      input.addEventListener('keydown', function (event) {
        if (event.key === 'Enter' && card.value.trim()) {
          event.preventDefault();
          clearErrors();
          if (addRow()) card.focus();
        }
      });
    });
    list.addEventListener('input', function () { setReady(null); });

    function setReady(lines) {
      resolved = lines ? { text: list.value, lines: lines } : null;
      send.textContent = resolved ? 'Send my want list' : 'Check my list';
      if (!lines) preview.hidden = true;
    }

    function report(problems) {
      problems.forEach(function (p) { setError(p[0], p[1]); });
      alertBox.textContent = problems.length === 1 ? problems[0][1] : 'Please fix ' + problems.length + ' fields: ' + problems.map(function (p) { return p[1]; }).join(' ');
      problems[0][0].focus();
    }

    // "Charizard · Base · Near Mint or better · up to $12.00" (open fields said as such).
    function describe(l) {
      var parts = [l.setName || 'any set', l.condition ? l.condition + ' or better' : 'any condition', l.maxPrice !== null && l.maxPrice !== undefined ? 'up to ' + money(l.maxPrice, currency) : 'any price'];
      return (l.quantity > 1 ? l.quantity + ' × ' : '') + l.cardName + ' · ' + parts.join(' · ');
    }

    function lineItem(title, detail, kind) {
      var li = el('li', { class: kind || '' });
      li.appendChild(el('span', { class: 'what' }, title));
      if (detail) li.appendChild(el('span', { class: 'why' }, detail));
      return li;
    }

    function showPreview(body) {
      while (previewLines.firstChild) previewLines.removeChild(previewLines.firstChild);
      var bad = 0;
      (body.lines || []).forEach(function (l) {
        if (l.status !== 'ok') {
          bad++;
          previewLines.appendChild(lineItem('Line ' + l.line + ': ' + l.text, l.error.message, 'bad'));
          return;
        }
        var notes = (l.changes || []).concat(l.warnings || []).join('; ');
        previewLines.appendChild(lineItem(describe(l), notes, (l.warnings || []).length ? 'warn' : ''));
      });
      if (body.extraLines) {
        bad++;
        previewLines.appendChild(lineItem(body.extraLines + ' more line' + (body.extraLines === 1 ? '' : 's'), 'A want list is at most 25 cards: send the rest in another list.', 'bad'));
      }
      preview.hidden = false;
      var n = (body.lines || []).length - (bad - (body.extraLines ? 1 : 0));
      if (bad) {
        setReady(null);
        preview.hidden = false;
        setError(list, 'Fix the lines marked below, then check again.');
        alertBox.textContent = bad + ' line' + (bad === 1 ? '' : 's') + ' cannot be sent yet. Fix ' + (bad === 1 ? 'it' : 'them') + ' in your list.';
        list.focus();
        return;
      }
      setReady(body.lines);
      status.textContent = n + ' card' + (n === 1 ? '' : 's') + ' read. Check them, then send.';
      send.focus();
    }

    function call(path, body) {
      return fetch(api + path, { method: 'POST', credentials: 'omit', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
        .then(function (r) {
          return r.json().then(function (json) { return { ok: r.ok, status: r.status, body: json || {} }; }, function () { return { ok: r.ok, status: r.status, body: {} }; });
        });
    }

    // A refused request: the fields or lines it names, else one sentence for the buyer (and, when
    // the embed itself is wrong, a console line for the seller's developer).
    function failed(answer) {
      var b = answer.body;
      if (answer.status === 400 && b.details && b.details.issues) {
        var mapped = [];
        var lines = [];
        b.details.issues.forEach(function (issue) {
          var path = String(issue.path || '');
          var m = /^items\.(\d+)/.exec(path);
          var line = m && resolved && resolved.lines[Number(m[1])];
          var field = path.split('.').pop();
          var text = issueText(issue.message, field, currency, MAX_PRICE);
          if (line) lines.push('Line ' + line.line + ': ' + text);
          else if (inputs[field]) mapped.push([inputs[field], text]);
        });
        if (lines.length) { alertBox.textContent = lines.join(' '); setReady(null); return list.focus(); }
        if (mapped.length) return report(mapped);
      }
      var said = refusal(answer);
      if (said.code === 'NOT_FOUND' || said.code === 'ORIGIN_NOT_ALLOWED') console.error(sellerHint(said.code, seller, location.origin, base));
      else if (said.dev) console.warn(said.dev);
      alertBox.textContent = said.text;
    }

    // No answer the page may read: the shop refused this page (its 403 carries no CORS headers,
    // so ask again where any page may read the answer), or it could not be reached.
    function offline() {
      send.disabled = false;
      status.textContent = '';
      return check().then(function (state) {
        if (!state.ok) {
          console.error(sellerHint(state.kind, seller, state.origin, base));
          alertBox.textContent = UNAVAILABLE;
          return;
        }
        alertBox.textContent = 'Your want list could not be sent: the shop could not be reached. Check your connection and try again.';
      });
    }

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      clearErrors();
      // A card still in the row joins the list.
      if (card.value.trim() && !addRow()) return;
      var problems = [];
      if (!list.value.trim()) problems.push([list, 'Add a card, or write your list (one card per line).']);
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.value.trim())) problems.push([email, 'Enter a valid email address, like name@example.com.']);
      if (problems.length) return report(problems);
      send.disabled = true;
      if (!resolved || resolved.text !== list.value) {
        status.textContent = 'Checking your list...';
        return call('/want-list/resolve', { text: list.value, currency: currency })
          .then(function (answer) {
            send.disabled = false;
            status.textContent = '';
            if (answer.ok) return showPreview(answer.body);
            failed(answer);
          })
          .catch(offline);
      }
      status.textContent = 'Sending...';
      var body = {
        items: resolved.lines.map(function (l) { return { cardName: l.cardName, setName: l.setName, condition: l.condition, maxPrice: l.maxPrice, quantity: l.quantity }; }),
        currency: currency,
        email: email.value.trim(),
        website: website.value
      };
      if (note.value.trim()) body.note = note.value.trim();
      call('/want-list', body)
        .then(function (answer) {
          send.disabled = false;
          status.textContent = '';
          if (answer.ok) return showDone(answer.body);
          failed(answer);
        })
        .catch(offline);
    });

    function showDone(result) {
      while (doneLines.firstChild) doneLines.removeChild(doneLines.firstChild);
      var waiting = 0;
      (result.requests || []).forEach(function (r) {
        var n = Number(r.matchCount) || 0;
        if (!n) waiting++;
        doneLines.appendChild(lineItem(describe(r), n > 0 ? n + ' in stock now' : 'Not in stock yet: we will let you know', n > 0 ? 'ok' : ''));
      });
      doneText.textContent = waiting ? 'We will let you know at ' + email.value.trim() + ' when ' + (waiting === 1 ? 'it comes' : 'they come') + ' in.' : 'We will be in touch at ' + email.value.trim() + '.';
      form.hidden = true;
      done.hidden = false;
      done.focus();
    }

    again.addEventListener('click', function () {
      form.reset();
      setReady(null);
      done.hidden = true;
      form.hidden = false;
      card.focus();
    });
  }

  var scripts = [];
  if (document.currentScript && document.currentScript.hasAttribute('data-seller')) scripts.push(document.currentScript);
  else scripts = Array.prototype.slice.call(document.querySelectorAll('script[data-seller][src*="widget.js"]'));
  scripts.forEach(function (script) {
    if (script.hasAttribute('data-want-list-mounted')) return;
    script.setAttribute('data-want-list-mounted', '');
    mount(script);
  });
})();
`;

/** The script as served: the template with the condition scale, the price ceiling and the messages put in. */
export const WIDGET_SCRIPT: string = TEMPLATE.replace('__CONDITIONS__', () => JSON.stringify(WIDGET_CONDITIONS))
  .replace('__MAX_PRICE__', () => String(MAX_AMOUNT))
  .replace('__MESSAGES__', () => WIDGET_MESSAGES);
