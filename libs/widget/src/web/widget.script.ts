// The want-list widget (GET /widget.js): hand-written browser JavaScript, no dependencies, no build
// step. `<script src="{base}/widget.js" data-seller="acme" data-theme="dark" async>` renders, in a
// shadow root right after the script tag, a form (card name with catalogue suggestions, set,
// condition, max price, email, optional note, and a hidden honeypot) that posts to
// {base}/api/v1/public/sellers/<seller>/want-list and shows the match count. Every request goes to
// the origin the script came from; nothing else is loaded. The host page's CSS cannot reach in
// (shadow root; `:host { all: initial !important }` stops inherited and !important styles on the
// host element), and the widget's CSS cannot leak out. Kept a String.raw template like the
// verification page's script, so the bytes served are exactly these (the build would rewrite a .js
// file): the conditions are the only thing put in, when the module loads.
import { RAW_GRADES } from '@app/catalog';

/** The raw condition scale, best first: [label, code]. Near Mint is preselected. */
export const WIDGET_CONDITIONS: ReadonlyArray<readonly [string, string]> = RAW_GRADES.map((g) => [g.label, g.code] as const);

const TEMPLATE = String.raw`/* Want-list widget. Embed: <script src=".../widget.js" data-seller="your-slug" data-theme="light|dark|auto" async></script> */
(function () {
  'use strict';
  var CONDITIONS = __CONDITIONS__;
  var DEFAULT_CONDITION = 'Near Mint';
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
    '.w .count{display:inline-block;margin:6px 0 12px;padding:4px 10px;border-radius:999px;background:var(--okbg);color:var(--ok);font-weight:650}' +
    '.w .link{background:none;color:var(--ac);padding:0;width:auto;font-weight:600;text-decoration:underline}' +
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
    var currency = (script.getAttribute('data-currency') || 'USD').toUpperCase();
    var src = new URL(script.src, document.baseURI);
    var base = src.origin + src.pathname.replace(/\/widget\.js$/, '');
    var api = base + '/api/v1/public/sellers/' + encodeURIComponent(seller);

    var host = el('div', { 'data-want-list-widget': seller });
    script.parentNode.insertBefore(host, script.nextSibling);
    var root = host.attachShadow({ mode: 'open' });
    root.appendChild(el('style', {}, CSS));
    var box = el('div', { class: 'w ' + theme, part: 'widget' });
    root.appendChild(box);

    var form = el('form', { novalidate: '', 'aria-label': 'Want list' });
    form.appendChild(el('h2', {}, 'Looking for a card?'));
    form.appendChild(el('p', { class: 'sub' }, 'Tell us what you want. We check our stock at once and let you know.'));

    var card = el('input', { id: 'card', name: 'cardName', list: 'card-list', autocomplete: 'off', maxlength: '200', required: '', spellcheck: 'false' });
    var cardList = el('datalist', { id: 'card-list' });
    var cardField = field('card', 'Card name', card);
    cardField.appendChild(cardList);
    form.appendChild(cardField);

    var row = el('div', { class: 'row' });
    var set = el('input', { id: 'set', name: 'setName', list: 'set-list', autocomplete: 'off', maxlength: '200', required: '' });
    var setList = el('datalist', { id: 'set-list' });
    var setField = field('set', 'Set', set);
    setField.appendChild(setList);
    row.appendChild(setField);
    var condition = el('select', { id: 'condition', name: 'condition' });
    CONDITIONS.forEach(function (c) {
      var option = el('option', { value: c[0] }, c[0] + ' (' + c[1] + ')');
      if (c[0] === DEFAULT_CONDITION) option.selected = true;
      condition.appendChild(option);
    });
    row.appendChild(field('condition', 'Condition (at least)', condition));
    form.appendChild(row);

    var price = el('input', { id: 'price', name: 'maxPrice', inputmode: 'decimal', autocomplete: 'off', maxlength: '12', required: '' });
    form.appendChild(field('price', 'Max price (' + currency + ')', price));
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

    var send = el('button', { type: 'submit' }, 'Send my want list');
    form.appendChild(send);
    var status = el('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
    var alertBox = el('p', { class: 'alert', role: 'alert' });
    form.appendChild(status);
    form.appendChild(alertBox);
    box.appendChild(form);

    var done = el('div', { class: 'done', tabindex: '-1', hidden: '' });
    var doneTitle = el('h2', {}, 'Thanks, we have your want list');
    var doneCount = el('p', { class: 'count' });
    var doneText = el('p', { class: 'sub' });
    var again = el('button', { type: 'button', class: 'link' }, 'Send another card');
    done.appendChild(doneTitle);
    done.appendChild(doneCount);
    done.appendChild(doneText);
    done.appendChild(again);
    box.appendChild(done);

    var inputs = { cardName: card, setName: set, condition: condition, maxPrice: price, email: email, note: note };
    var setsOf = {};
    var timer = null;
    var pending = null;

    function fill(list, values) {
      while (list.firstChild) list.removeChild(list.firstChild);
      values.forEach(function (v) { list.appendChild(el('option', { value: v })); });
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

    function check() {
      var problems = [];
      if (!card.value.trim()) problems.push([card, 'Enter the card you are looking for.']);
      if (!set.value.trim()) problems.push([set, 'Enter the set.']);
      var amount = Number(price.value.trim().replace(',', '.'));
      if (!price.value.trim() || !isFinite(amount) || amount <= 0) problems.push([price, 'Enter a price above 0, like 25 or 12.50.']);
      else if (Math.round(amount * 100) !== Math.round(amount * 100 * 1000) / 1000) problems.push([price, 'Use at most 2 decimals.']);
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email.value.trim())) problems.push([email, 'Enter a valid email address, like name@example.com.']);
      return problems;
    }

    function report(problems) {
      problems.forEach(function (p) { setError(p[0], p[1]); });
      alertBox.textContent = problems.length === 1 ? problems[0][1] : 'Please fix ' + problems.length + ' fields: ' + problems.map(function (p) { return p[1]; }).join(' ');
      problems[0][0].focus();
    }

    function fieldOf(path) {
      var name = String(path || '').split('.').pop();
      return inputs[name] || null;
    }

    form.addEventListener('submit', function (event) {
      event.preventDefault();
      clearErrors();
      var problems = check();
      if (problems.length) return report(problems);
      send.disabled = true;
      status.textContent = 'Sending...';
      var body = {
        items: [{ cardName: card.value.trim(), setName: set.value.trim(), condition: condition.value, maxPrice: Math.round(Number(price.value.trim().replace(',', '.')) * 100) / 100 }],
        currency: currency,
        email: email.value.trim(),
        website: website.value
      };
      if (note.value.trim()) body.note = note.value.trim();
      fetch(api + '/want-list', { method: 'POST', credentials: 'omit', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
        .then(function (r) {
          return r.json().then(function (json) { return { ok: r.ok, status: r.status, body: json || {} }; }, function () { return { ok: r.ok, status: r.status, body: {} }; });
        })
        .then(function (answer) {
          send.disabled = false;
          status.textContent = '';
          if (answer.ok) return showDone(answer.body);
          var b = answer.body;
          if (answer.status === 400 && b.details && b.details.issues) {
            var mapped = [];
            b.details.issues.forEach(function (issue) {
              var input = fieldOf(issue.path);
              if (input) mapped.push([input, issue.message]);
            });
            if (mapped.length) return report(mapped);
          }
          if (answer.status === 429) {
            var wait = (b.details && b.details.retry_after) || 60;
            alertBox.textContent = 'Too many want lists from here just now. Please try again in ' + wait + ' seconds.';
            return;
          }
          if (answer.status === 404) {
            alertBox.textContent = 'This shop cannot take want lists right now.';
            return;
          }
          alertBox.textContent = b.message || 'Your want list could not be sent. Please try again.';
        })
        .catch(function () {
          send.disabled = false;
          status.textContent = '';
          alertBox.textContent = 'Your want list could not be sent (no connection to the shop). Please try again later.';
        });
    });

    function showDone(result) {
      var n = Number(result.matchCount) || 0;
      doneCount.textContent = n > 0 ? n + ' in stock now' : 'Not in stock yet';
      doneText.textContent = n > 0 ? 'We will be in touch about it at ' + email.value.trim() + '.' : 'We will let you know at ' + email.value.trim() + ' when it comes in.';
      form.hidden = true;
      done.hidden = false;
      done.focus();
    }

    again.addEventListener('click', function () {
      form.reset();
      condition.value = DEFAULT_CONDITION;
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

/** The script as served: the template with the condition scale put in. */
export const WIDGET_SCRIPT: string = TEMPLATE.replace('__CONDITIONS__', JSON.stringify(WIDGET_CONDITIONS));
