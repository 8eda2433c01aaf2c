// The web portal's page script: sign-in, then API keys, webhooks (their deliveries, attempts,
// payloads and replay), the event log, the buyer emails (settings, preview, recent emails, the
// outbox), the want-list widget (allowed origins, theme, the snippet to paste) and the account
// (a password) — each read and changed through the API's own routes (/api/v1/…), signed in with
// the session cookie, every change sending the session's CSRF token.
// Plain DOM, no dependencies; every piece of data goes in with textContent (no HTML is built from
// data), so the strict CSP (no inline script or style) holds. People read sentences: an error's
// code is shown only in small print beside its message.
(function () {
  'use strict';

  const SCOPES = ['read:requests', 'write:requests', 'read:inventory', 'write:inventory', 'read:trades', 'write:trades', 'read:webhooks', 'write:webhooks', 'admin'];
  const SECTIONS = [['keys', 'API Keys'], ['webhooks', 'Webhooks'], ['events', 'Events'], ['emails', 'Buyer emails'], ['widget', 'Widget'], ['account', 'Account']];
  const app = document.getElementById('app');
  const toastBox = document.getElementById('toast');
  let session = null;
  let eventTypes = null;

  // ---- DOM helpers -------------------------------------------------------------------------
  function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
      else if (key === 'text') el.textContent = value;
      else el.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
  }
  const when = (iso) => (iso ? new Date(iso).toLocaleString() : '—');
  const badge = (text) => h('span', { class: `badge ${text}`, text });
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  function toast(message) {
    const p = h('p', { text: message });
    toastBox.append(p);
    setTimeout(() => p.remove(), 4000);
  }
  /** Renders a section: the header, then the page's title (an h1 the caller may update) and content. */
  function page(title, ...content) {
    const heading = h('h1', { id: 'page-title', text: title });
    const main = h('main', { id: 'main' }, heading, ...content);
    app.replaceChildren(top(), main);
    return heading;
  }
  /** A button that copies a text (a secret, a snippet) to the clipboard, saying so. */
  function copyButton(label, textOf, what) {
    return h('button', { type: 'button', class: 'copy', onclick: async () => {
      try {
        await navigator.clipboard.writeText(typeof textOf === 'function' ? textOf() : textOf);
        toast(`${what} copied`);
      } catch {
        toast('Copying did not work here: select the text and copy it instead');
      }
    } }, label);
  }
  /**
   * A table of records. On a narrow screen each row becomes a card, each cell labelled with its
   * column (data-label); the roles keep it a table for screen readers whatever the CSS does.
   */
  function dataTable(headers, rows, attrs) {
    for (const row of rows) {
      row.setAttribute('role', 'row');
      [...row.children].forEach((cell, i) => {
        cell.setAttribute('role', 'cell');
        if (headers[i]) cell.setAttribute('data-label', headers[i]);
        // One box for the cell's content: beside its label on a narrow screen.
        cell.replaceChildren(h('div', { class: 'cell' }, ...cell.childNodes));
      });
    }
    return h('div', { class: 'table-box' },
      h('table', { class: 'data', role: 'table', ...attrs },
        h('thead', { role: 'rowgroup' }, h('tr', { role: 'row' }, headers.map((t) => h('th', { scope: 'col', role: 'columnheader', text: t })))),
        h('tbody', { role: 'rowgroup' }, rows)));
  }

  // ---- errors, in words ----------------------------------------------------------------------
  /** What people read for the API's codes whose own message is written for programs. */
  const HUMAN = {
    SIGN_IN_REFUSED: 'That workspace, email and password do not match. Check them and try again.',
    RATE_LIMITED: 'Too many attempts in a short time: wait a minute, then try again.',
    CSRF_TOKEN_INVALID: 'This page is out of step with your session: reload it and try again.',
    UNAUTHORIZED: 'You are not signed in (or your session has ended): sign in again.',
    PRECONDITION_FAILED: 'This was changed somewhere else meanwhile: the page shows it as it is now; make your change again.',
    INTERNAL: 'Something went wrong on the server. Try again; if it keeps happening, the server log has the details.',
    STORAGE_FULL: "The server's disk is full: nothing can be saved until space is freed.",
    STORAGE_READ_ONLY: "The server's storage is read-only: nothing can be saved for now.",
    INVALID_JSON: 'The page sent something the server could not read: reload it and try again.',
  };
  /** zod's wording of the common refusals, as a person would say them. */
  function friendly(message) {
    let m;
    if ((m = /^Too small: expected string to have >=(\d+) characters?$/.exec(message))) return Number(m[1]) <= 1 ? 'is required' : `needs at least ${m[1]} characters`;
    if ((m = /^Too big: expected (?:string|array) to have <=(\d+) (characters?|items?)$/.exec(message))) return `takes at most ${m[1]} ${m[2]}`;
    if ((m = /^Too big: expected number to be <=(\d+)$/.exec(message))) return `must be at most ${m[1]}`;
    if (/^Invalid URL$/i.test(message)) return 'is not a web address (https://…)';
    if (/^Invalid email/i.test(message)) return 'is not an email address';
    if (/^Invalid input: expected \w+, received undefined$/.test(message)) return 'is required';
    return message;
  }
  /**
   * An error as people read it: `text`, and the API's `code` for small print. `labels` names a
   * form's fields by their path in the request (`{ url: 'The URL' }`) for the refusals of a
   * request's shape ("Invalid body field …"); the domain's own refusals are sentences already.
   */
  function describe(error, labels) {
    if (!error.status) return { text: 'No answer from the server: check that it is running and that you are online, then try again.', code: null };
    const code = error.code || `HTTP ${error.status}`;
    const issues = error.details && Array.isArray(error.details.issues) ? error.details.issues : [];
    if (error.code === 'VALIDATION_FAILED' && /^Invalid /.test(error.message) && issues.length > 0) {
      const parts = issues.slice(0, 5).map((issue) => {
        const said = friendly(issue.message);
        if (said === issue.message) return issue.message.replace(/\.$/, '');
        const field = labels && issue.path ? labels[String(issue.path).split('.')[0]] : undefined;
        return `${field || 'A value'} ${said}`;
      });
      return { text: `${parts.join('. ')}.`, code };
    }
    if (HUMAN[error.code]) return { text: HUMAN[error.code], code };
    if (error.status >= 500) return { text: HUMAN.INTERNAL, code };
    return { text: error.message, code };
  }
  function errorLine(error, labels) {
    const { text, code } = describe(error, labels);
    return h('p', { class: 'error', role: 'alert' }, text, code ? h('small', { class: 'code', text: code }) : null);
  }
  /** A refusal the page itself makes (before asking the server). */
  const problemLine = (text) => h('p', { class: 'error', role: 'alert', text });
  function confirmDialog(message, action) {
    return new Promise((resolve) => {
      const dialog = h(
        'dialog',
        { 'aria-labelledby': 'confirm-text' },
        h('p', { id: 'confirm-text', text: message }),
        h('div', { class: 'actions' },
          h('button', { type: 'button', onclick: () => { dialog.close(); resolve(false); } }, 'Cancel'),
          h('button', { type: 'button', class: 'danger', onclick: () => { dialog.close(); resolve(true); } }, action)),
      );
      dialog.addEventListener('close', () => { dialog.remove(); resolve(false); });
      document.body.append(dialog);
      dialog.showModal();
    });
  }

  // ---- the API -----------------------------------------------------------------------------
  /** A call to the API with the session: its answer and ETag. A refusal throws with the API's code and message. */
  async function request(method, path, body, options) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && session) headers['x-csrf-token'] = session.csrfToken;
    if (options && options.ifMatch) headers['if-match'] = options.ifMatch;
    const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let data = null;
    try {
      data = text ? JSON.parse(text) : null;
    } catch {
      data = null;
    }
    if (!res.ok) {
      const error = new Error((data && data.message) || `The server answered ${res.status}`);
      error.status = res.status;
      error.code = data && data.code;
      error.details = data && data.details;
      // The session ended (signed out elsewhere, expired, a password changed): back to the sign-in form.
      if (res.status === 401 && session && !(method === 'POST' && path === '/portal/api/session')) {
        session = null;
        renderSignIn('Your session has ended: sign in again.');
      }
      throw error;
    }
    return { data, etag: res.headers.get('etag') };
  }
  const api = async (method, path, body, options) => (await request(method, path, body, options)).data;
  const query = (params) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
    const s = q.toString();
    return s ? `?${s}` : '';
  };
  const isoOf = (local) => (local ? new Date(local).toISOString() : '');
  async function types() {
    eventTypes ??= (await api('GET', '/api/v1/event-types')).data.map((t) => t.type);
    return eventTypes;
  }

  // ---- sign-in and the frame ---------------------------------------------------------------
  function renderSignIn(notice) {
    const error = h('div', { 'aria-live': 'assertive' });
    const form = h('form', { class: 'panel signin', 'aria-labelledby': 'signin-title' },
      h('h1', { id: 'signin-title', text: 'Sign in to the portal' }),
      notice ? h('p', { class: 'notice', role: 'status', text: notice }) : null,
      h('label', { for: 'workspace' }, 'Workspace'), h('input', { id: 'workspace', name: 'workspace', type: 'text', autocomplete: 'organization', autocapitalize: 'none', required: true }),
      h('label', { for: 'email' }, 'Email'), h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'username', required: true }),
      h('label', { for: 'password' }, 'Password'), h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true }),
      error,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Sign in')),
      h('p', { class: 'muted' }, 'No password yet? Ask for a sign-in link:', h('code', { class: 'command', text: 'npm run cli -- user link --workspace <slug> --email <you>' }),
        'or give yourself a password (typed on standard input):', h('code', { class: 'command', text: 'npm run cli -- user password --workspace <slug> --email <you> --password-stdin' })),
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = new FormData(form);
      try {
        session = await api('POST', '/portal/api/session', { workspace: f.get('workspace'), email: f.get('email'), password: f.get('password') });
        if (location.hash === '#/keys') route();
        else location.hash = '#/keys';
      } catch (err) {
        error.replaceChildren(errorLine(err));
      }
    });
    app.replaceChildren(form);
  }

  function top() {
    const current = location.hash.split('/')[1] || 'keys';
    return h('header', { class: 'top' },
      h('span', { class: 'brand', text: session.workspace.name || session.workspace.slug }),
      h('nav', { 'aria-label': 'Sections' }, SECTIONS.map(([id, text]) => h('a', { href: `#/${id}`, 'aria-current': current === id ? 'page' : null }, text))),
      h('span', { class: 'who', title: session.user.email, text: session.user.email }),
      h('button', { type: 'button', class: 'sign-out', onclick: signOut }, 'Sign out'),
    );
  }

  async function signOut() {
    try {
      await api('DELETE', '/portal/api/session');
    } catch {
      // Ended already: the form is what follows either way.
    } finally {
      session = null;
      history.replaceState(null, '', location.pathname);
      renderSignIn('Signed out.');
    }
  }

  // ---- API keys ----------------------------------------------------------------------------
  async function renderKeys() {
    const list = h('div', { class: 'panel' }, h('p', { class: 'muted', text: 'Loading…' }));
    const created = h('div', { 'aria-live': 'polite' });
    const error = h('div');
    const name = h('input', { id: 'key-name', name: 'name', type: 'text', required: true, maxlength: 100, placeholder: 'e.g. Storefront sync (read only)' });
    const boxes = SCOPES.map((scope) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'scopes', value: scope }), scope));
    const form = h('form', { class: 'panel', 'aria-labelledby': 'create-key' },
      h('h2', { id: 'create-key', text: 'Create an API key' }),
      h('label', { for: 'key-name' }, 'Descriptive name'), name,
      h('fieldset', {}, h('legend', { text: 'Scopes (none ticked = full access)' }), boxes),
      error,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Create key')),
    );
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const scopes = boxes.map((b) => b.querySelector('input')).filter((i) => i.checked).map((i) => i.value);
      try {
        const key = await api('POST', '/api/v1/api-keys', { name: name.value, scopes });
        created.replaceChildren(h('div', { class: 'panel secret', role: 'region', 'aria-label': 'New API key' },
          h('strong', { text: `Key “${key.name}” created (${key.scopes.join(', ')}).` }),
          h('p', { text: 'Copy the secret now: it is shown only once.' }), h('code', { id: 'new-secret', text: key.secret }),
          copyButton('Copy secret', key.secret, 'Secret')));
        form.reset();
        error.replaceChildren();
        await loadKeys(list);
      } catch (err) {
        error.replaceChildren(errorLine(err, { name: 'The name', scopes: 'The scopes' }));
      }
    });
    page('API Keys', created, form, h('h2', { text: 'Keys' }), list);
    await loadKeys(list);
  }

  async function loadKeys(list) {
    const keys = (await api('GET', '/api/v1/api-keys?limit=100')).data;
    const rows = keys.map((k) => h('tr', { 'data-key-id': k.id },
      h('td', { text: k.name }), h('td', {}, h('code', { text: k.scopes.join(', ') })), h('td', { text: when(k.createdAt) }),
      h('td', { text: when(k.lastUsedAt) }), h('td', {}, badge(k.status)),
      h('td', {}, k.status === 'active' ? h('button', { type: 'button', class: 'danger', onclick: () => revoke(k, list) }, 'Revoke') : h('span', { class: 'muted', text: when(k.revokedAt) }))));
    list.replaceChildren(keys.length === 0 ? h('p', { class: 'muted', text: 'No keys yet.' }) : dataTable(['Name', 'Scopes', 'Created', 'Last used', 'Status', ''], rows));
  }

  async function revoke(key, list) {
    if (!(await confirmDialog(`Revoke “${key.name}”? Requests with it are refused (401) from now on.`, 'Revoke key'))) return;
    try {
      await api('DELETE', `/api/v1/api-keys/${encodeURIComponent(key.id)}`);
      toast(`Revoked “${key.name}”`);
    } catch (err) {
      toast(describe(err).text);
    }
    await loadKeys(list);
  }

  // ---- webhooks ----------------------------------------------------------------------------
  function eventBoxes(all, chosen) {
    return h('fieldset', {}, h('legend', { text: 'Events' }), all.map((t) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'events', value: t, checked: chosen.includes(t) }), t)));
  }
  const checked = (form, name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);
  const WEBHOOK_LABELS = { url: 'The URL', description: 'The description', events: 'The events' };

  /** A signing secret shown once, with its copy button. */
  function secretPanel(title, secret) {
    return h('div', { class: 'panel secret', role: 'region', 'aria-label': 'Signing secret' },
      h('strong', { text: title }),
      h('p', { text: 'Copy it now: it is shown only once. Your receiver checks each delivery\'s signature with it.' }),
      h('code', { id: 'webhook-secret', text: secret }),
      copyButton('Copy secret', secret, 'Secret'));
  }

  async function renderWebhooks() {
    const all = await types();
    const error = h('div');
    const form = h('form', { class: 'panel', 'aria-labelledby': 'create-webhook' },
      h('h2', { id: 'create-webhook', text: 'Create a webhook' }),
      h('label', { for: 'wh-url' }, 'URL'), h('input', { id: 'wh-url', name: 'url', type: 'url', required: true, placeholder: 'https://example.com/hooks' }),
      h('label', { for: 'wh-description' }, 'Description'), h('input', { id: 'wh-description', name: 'description', type: 'text', maxlength: 200 }),
      eventBoxes(all, []), error,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Create webhook')));
    const list = h('div', { class: 'panel' });
    const secret = h('div', { 'aria-live': 'polite' });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = new FormData(form);
      try {
        const created = await api('POST', '/api/v1/webhooks', { url: f.get('url'), events: checked(form, 'events'), description: f.get('description') || undefined });
        secret.replaceChildren(secretPanel(`Webhook ${created.url} created. Its signing secret:`, created.secret));
        form.reset();
        error.replaceChildren();
        await loadWebhooks(list);
      } catch (err) {
        error.replaceChildren(errorLine(err, WEBHOOK_LABELS));
      }
    });
    page('Webhooks', secret, h('h2', { text: 'Webhooks' }), list, form);
    await loadWebhooks(list);
  }

  async function loadWebhooks(list) {
    const hooks = (await api('GET', '/api/v1/webhooks?limit=100')).data;
    list.replaceChildren(hooks.length === 0 ? h('p', { class: 'muted', text: 'No webhooks yet.' }) : dataTable(['URL', 'Events', 'Status', 'Description'],
      hooks.map((w) => h('tr', {},
        h('td', {}, h('a', { href: `#/webhooks/${encodeURIComponent(w.id)}` }, w.url)),
        h('td', {}, h('code', { text: w.events.join(', ') })), h('td', {}, badge(w.status)), h('td', { text: w.description || '' })))));
  }

  async function renderWebhook(id) {
    const all = await types();
    let hook = await api('GET', `/api/v1/webhooks/${encodeURIComponent(id)}`);
    const error = h('div');
    const result = h('div', { 'aria-live': 'polite' });
    const rotated = h('div', { 'aria-live': 'polite' });
    const status = h('span', {}, badge(hook.status));
    const edit = h('form', { class: 'panel', 'aria-labelledby': 'edit-webhook' },
      h('h2', { id: 'edit-webhook', text: 'Settings' }),
      h('label', { for: 'edit-url' }, 'URL'), h('input', { id: 'edit-url', name: 'url', type: 'url', required: true, value: hook.url }),
      h('label', { for: 'edit-description' }, 'Description'), h('input', { id: 'edit-description', name: 'description', type: 'text', value: hook.description || '' }),
      eventBoxes(all, hook.events),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'enabled', checked: hook.status === 'enabled' }), 'Enabled'),
      error,
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'primary' }, 'Save'),
        h('button', { type: 'button', onclick: sendTest }, 'Send a test event'),
        h('button', { type: 'button', onclick: rotate }, 'Rotate signing secret')),
      result);
    /** The page as the webhook is now (after a save, the new URL everywhere it is named). */
    function show(next) {
      hook = next;
      heading.textContent = `Webhook ${hook.url}`;
      status.replaceChildren(badge(hook.status));
    }
    edit.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = new FormData(edit);
      try {
        show(await api('PATCH', `/api/v1/webhooks/${encodeURIComponent(id)}`, { url: f.get('url'), description: f.get('description') || null, events: checked(edit, 'events'), enabled: f.get('enabled') === '' || f.get('enabled') === 'on' }));
        error.replaceChildren();
        toast('Webhook saved');
      } catch (err) {
        error.replaceChildren(errorLine(err, WEBHOOK_LABELS));
      }
    });
    async function sendTest() {
      try {
        const r = await api('POST', `/api/v1/webhooks/${encodeURIComponent(id)}/test`);
        result.replaceChildren(h('p', { text: `Test ${r.ok ? 'delivered' : 'failed'}: ${r.status ?? 'no answer'} in ${r.durationMs} ms${r.error ? ` (${r.error})` : ''}` }));
      } catch (err) {
        result.replaceChildren(errorLine(err));
      }
    }
    async function rotate() {
      if (!(await confirmDialog(`Make a new signing secret for ${hook.url}? The current one keeps signing beside it for 24 hours, so your receiver can switch without a gap.`, 'Rotate secret'))) return;
      try {
        const r = await api('POST', `/api/v1/webhooks/${encodeURIComponent(id)}/rotate-secret`);
        const { secret, previousSecretsExpireAt, ...rest } = r;
        show(rest);
        rotated.replaceChildren(secretPanel(`A new signing secret for ${hook.url} (the previous one stops signing ${when(previousSecretsExpireAt)}):`, secret));
      } catch (err) {
        rotated.replaceChildren(errorLine(err));
      }
    }

    // Delivery history, filtered by event type, status and date range; replay one or all the filter selects.
    const typeSelect = h('select', { id: 'f-type', name: 'eventType' }, h('option', { value: '' }, 'Any type'), all.map((t) => h('option', { value: t }, t)));
    const statusSelect = h('select', { id: 'f-status', name: 'status' }, ['', 'pending', 'succeeded', 'failed'].map((s) => h('option', { value: s }, s || 'Any status')));
    const from = h('input', { id: 'f-from', name: 'from', type: 'datetime-local' });
    const to = h('input', { id: 'f-to', name: 'to', type: 'datetime-local' });
    const filters = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter deliveries' },
      h('div', {}, h('label', { for: 'f-type' }, 'Event type'), typeSelect),
      h('div', {}, h('label', { for: 'f-status' }, 'Status'), statusSelect),
      h('div', {}, h('label', { for: 'f-from' }, 'From'), from),
      h('div', {}, h('label', { for: 'f-to' }, 'To'), to),
      h('button', { type: 'submit' }, 'Filter'));
    const table = h('div', { id: 'deliveries' });
    const detail = h('div', { id: 'delivery-detail', 'aria-live': 'polite' });
    const progress = h('p', { id: 'replay-progress', role: 'status', class: 'muted' });
    const replayAll = h('button', { type: 'button', class: 'primary', id: 'replay-all' }, 'Replay all shown');
    const filterQuery = () => ({ eventType: typeSelect.value, status: statusSelect.value, from: isoOf(from.value), to: isoOf(to.value) });
    let shown = [];
    async function deliveriesMatching(filter) {
      const found = [];
      let cursor = null;
      do {
        const pageOf = await api('GET', `/api/v1/webhooks/${encodeURIComponent(id)}/deliveries${query({ ...filter, limit: '100', cursor })}`);
        found.push(...pageOf.data);
        cursor = pageOf.nextCursor;
      } while (cursor && found.length < 1000);
      return found;
    }
    async function loadDeliveries() {
      shown = await deliveriesMatching(filterQuery());
      replayAll.textContent = `Replay all ${shown.length} shown`;
      replayAll.disabled = shown.length === 0;
      table.replaceChildren(shown.length === 0 ? h('p', { class: 'muted', text: 'No deliveries match.' }) : dataTable(['When', 'Event', 'Status', 'Attempts (response codes)', ''],
        shown.map((d) => h('tr', { 'data-delivery-id': d.id, 'data-status': d.status },
          h('td', { text: when(d.createdAt) }), h('td', {}, h('code', { text: d.eventType }), h('br'), h('small', { class: 'muted', text: d.eventId })),
          h('td', {}, badge(d.status)),
          h('td', { text: d.attempts.map((a) => a.statusCode ?? (a.error ? 'error' : '—')).join(' → ') || '—' }),
          h('td', { class: 'row-actions' },
            h('button', { type: 'button', onclick: () => showDelivery(d.id) }, 'View'), ' ',
            h('button', { type: 'button', onclick: () => replay([d.eventId]) }, 'Replay'))))));
    }
    async function showDelivery(deliveryId) {
      try {
        const d = await api('GET', `/api/v1/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}`);
        detail.replaceChildren(h('div', { class: 'panel', role: 'region', 'aria-label': 'Delivery' },
          h('h2', { text: `Delivery ${d.id}` }),
          dataTable(['Attempt', 'Outcome', 'Code', 'Duration', 'Answer', 'When'], d.attempts.map((a) => h('tr', {}, h('td', { text: a.attempt ?? '—' }), h('td', {}, badge(a.outcome)), h('td', { text: a.statusCode ?? '—' }),
            h('td', { text: `${a.durationMs} ms` }), h('td', {}, h('code', { text: a.error || a.responseBody })), h('td', { text: when(a.attemptedAt) })))),
          h('h2', { text: 'Payload' }), h('pre', { text: JSON.stringify(d.payload, null, 2) })));
      } catch (err) {
        detail.replaceChildren(errorLine(err));
      }
    }

    // After a replay the panel follows the replayed deliveries until each has its answer (or two
    // minutes pass: a receiver still failing is retried on the usual schedule), refreshing the list.
    let watch = null;
    async function replay(eventIds) {
      const chosen = new Set(eventIds);
      // The deliveries' attempts so far: a replayed one is done once it has more, and is not pending.
      const before = new Map(shown.filter((d) => chosen.has(d.eventId)).map((d) => [d.id, d.attempts.length]));
      try {
        const r = await api('POST', `/api/v1/webhooks/${encodeURIComponent(id)}/replay`, { eventIds });
        toast(`Replay scheduled for ${plural(r.scheduled, 'event')}`);
        if (r.scheduled === 0) {
          progress.textContent = 'Nothing to replay: those deliveries are still being tried.';
          return;
        }
        const replayed = new Set(r.eventIds);
        for (const d of shown) if (!replayed.has(d.eventId)) before.delete(d.id);
        follow(before, hook.url);
      } catch (err) {
        progress.replaceChildren(errorLine(err));
      }
    }
    function follow(before, url) {
      if (watch) clearTimeout(watch);
      const started = Date.now();
      const total = before.size;
      progress.textContent = `Replaying ${plural(total, 'event')} to ${url}…`;
      const tick = async () => {
        watch = null;
        if (!table.isConnected) return;
        try {
          const { eventType, from: since, to: until } = filterQuery();
          const current = (await deliveriesMatching({ eventType, from: since, to: until })).filter((d) => before.has(d.id));
          const done = current.filter((d) => d.status !== 'pending' && d.attempts.length > before.get(d.id));
          const delivered = done.filter((d) => d.status === 'succeeded').length;
          const failed = done.length - delivered;
          await loadDeliveries();
          const finished = done.length >= total;
          const counts = `${delivered} of ${total} delivered${failed > 0 ? `, ${failed} failed` : ''}`;
          if (finished) progress.textContent = `Replay finished: ${counts}.`;
          else if (Date.now() - started > 120_000) progress.textContent = `Replay: ${counts}; the rest are still being retried — Refresh to see them later.`;
          else {
            progress.textContent = `Replaying to ${url}: ${counts} so far…`;
            watch = setTimeout(tick, 1000);
          }
        } catch (err) {
          progress.replaceChildren(errorLine(err));
        }
      };
      watch = setTimeout(tick, 500);
    }
    replayAll.addEventListener('click', async () => {
      const ids = [...new Set(shown.map((d) => d.eventId))];
      if (ids.length > 0 && (await confirmDialog(`Replay ${plural(ids.length, 'event')} to ${hook.url}?`, 'Replay'))) await replay(ids);
    });
    filters.addEventListener('submit', (e) => {
      e.preventDefault();
      loadDeliveries().catch((err) => table.replaceChildren(errorLine(err)));
    });
    const heading = page(`Webhook ${hook.url}`, h('p', {}, h('a', { href: '#/webhooks' }, '← All webhooks'), ' ', status), rotated, edit,
      h('div', { class: 'panel' }, h('h2', { text: 'Delivery history' }), filters,
        h('div', { class: 'actions' }, replayAll, h('button', { type: 'button', onclick: () => loadDeliveries().catch((err) => table.replaceChildren(errorLine(err))) }, 'Refresh')),
        progress, table), detail);
    await loadDeliveries();
  }

  // ---- events ------------------------------------------------------------------------------
  async function renderEvents() {
    const all = await types();
    const typeSelect = h('select', { id: 'e-type', name: 'type' }, h('option', { value: '' }, 'Any type'), all.map((t) => h('option', { value: t }, t)));
    const from = h('input', { id: 'e-from', type: 'datetime-local' });
    const to = h('input', { id: 'e-to', type: 'datetime-local' });
    const list = h('div', { class: 'panel', id: 'events' });
    const more = h('button', { type: 'button' }, 'Load more');
    let cursor = null;
    async function load(reset) {
      if (reset) { list.replaceChildren(); cursor = null; }
      const pageOf = await api('GET', `/api/v1/events${query({ type: typeSelect.value, from: isoOf(from.value), to: isoOf(to.value), limit: '50', cursor })}`);
      cursor = pageOf.nextCursor;
      more.hidden = !cursor;
      if (reset && pageOf.data.length === 0) list.append(h('p', { class: 'muted', text: 'No events match.' }));
      list.append(...pageOf.data.map((e) => h('details', { class: 'event', 'data-event-id': e.id },
        h('summary', {}, h('code', { text: e.type }), ' ', h('span', { class: 'muted', text: `${when(e.created_at)} · ${e.id}` })),
        h('pre', { text: JSON.stringify(e, null, 2) }))));
    }
    const filters = h('form', { class: 'filters', role: 'search', 'aria-label': 'Filter events' },
      h('div', {}, h('label', { for: 'e-type' }, 'Event type'), typeSelect),
      h('div', {}, h('label', { for: 'e-from' }, 'From'), from),
      h('div', {}, h('label', { for: 'e-to' }, 'To'), to),
      h('div', {}),
      h('button', { type: 'submit' }, 'Filter'));
    filters.addEventListener('submit', (e) => { e.preventDefault(); load(true).catch((err) => list.replaceChildren(errorLine(err))); });
    more.addEventListener('click', () => load(false).catch((err) => list.append(errorLine(err))));
    page('Events', h('p', { class: 'muted', text: 'The workspace\'s public events from the log, newest first, as webhooks deliver them.' }), h('div', { class: 'panel' }, filters), list, more);
    await load(true);
  }

  // ---- buyer emails ------------------------------------------------------------------------
  // The in-stock emails the widget's buyers get: the seller's settings (PUT
  // /api/v1/widget/settings/notifications), a preview rendered by the server with sample data, the
  // recent emails by pseudonymous buyer id (never the address), and the outbox (no SMTP_URL).
  async function renderEmails() {
    const current = await api('GET', '/api/v1/widget/settings/notifications');
    const enabled = h('input', { id: 'n-enabled', type: 'checkbox', checked: current.enabled });
    const shopName = h('input', { id: 'n-shop-name', type: 'text', maxlength: 100, value: current.shopName || '', placeholder: 'Your workspace name' });
    const replyTo = h('input', { id: 'n-reply-to', type: 'email', maxlength: 254, value: current.replyTo || '', placeholder: 'hello@your-shop.example' });
    const shopUrl = h('input', { id: 'n-shop-url', type: 'url', maxlength: 500, value: current.shopUrl || '', placeholder: 'https://your-shop.example' });
    const error = h('div');
    const form = h('form', { class: 'panel', 'aria-labelledby': 'n-settings' },
      h('h2', { id: 'n-settings', text: 'Settings' }),
      h('label', { class: 'check' }, enabled, 'Email buyers when a card from their want list is in stock'),
      h('label', { for: 'n-shop-name' }, 'Shop name (From and subject)'), shopName,
      h('label', { for: 'n-reply-to' }, 'Reply-to address'), replyTo,
      h('label', { for: 'n-shop-url' }, 'Shop URL (https)'), shopUrl,
      error,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Save')),
    );
    const preview = h('div', { class: 'panel', id: 'n-preview', 'aria-live': 'polite' });
    const list = h('div', { class: 'panel', id: 'n-list' });
    const buyer = h('input', { id: 'n-buyer', type: 'text', maxlength: 40, placeholder: 'buyer_… (empty: every buyer)' });
    const filter = h('form', { class: 'panel', role: 'search', 'aria-label': 'Filter emails by buyer' },
      h('label', { for: 'n-buyer' }, 'Buyer id'), buyer, h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Show')));
    filter.addEventListener('submit', (e) => { e.preventDefault(); loadNotices(list, buyer.value.trim()).catch((err) => list.replaceChildren(errorLine(err, { buyerId: 'The buyer id' }))); });
    const outbox = h('div', { class: 'panel', id: 'n-outbox' });
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        await api('PUT', '/api/v1/widget/settings/notifications', {
          enabled: enabled.checked, shopName: shopName.value.trim() || null, replyTo: replyTo.value.trim() || null, shopUrl: shopUrl.value.trim() || null,
        });
        error.replaceChildren();
        toast('Settings saved');
        await loadPreview(preview);
      } catch (err) {
        error.replaceChildren(errorLine(err, { shopName: 'The shop name', replyTo: 'The reply-to address', shopUrl: 'The shop URL' }));
      }
    });
    page('Buyer emails',
      h('p', { class: 'muted', text: 'Buyers who leave their email in your widget get one email when a card they want is in stock — at most one an hour, never twice for one match — with a one-click unsubscribe.' }),
      h('div', { class: 'cols' }, form, h('div', {}, h('h2', { text: 'Preview' }), preview)),
      h('h2', { text: 'Recent emails' }), filter, list,
      h('h2', { text: 'Outbox' }), outbox);
    await Promise.all([loadPreview(preview), loadNotices(list), loadOutbox(outbox)]);
  }

  async function loadPreview(box) {
    const p = await api('GET', '/api/v1/notifications/preview');
    box.replaceChildren(
      h('p', {}, h('strong', { text: 'Subject: ' }), p.subject),
      h('p', {}, h('strong', { text: 'From: ' }), p.from, p.replyTo ? ` · Reply-To: ${p.replyTo}` : ''),
      h('p', { class: 'muted' }, `List-Unsubscribe-Post: ${p.headers['List-Unsubscribe-Post']}`),
      h('pre', { text: p.text }));
  }

  async function loadNotices(box, buyerId) {
    const notices = (await api('GET', `/api/v1/notifications${query({ limit: '50', buyerId })}`)).data;
    box.replaceChildren(notices.length === 0 ? h('p', { class: 'muted', text: 'No emails yet.' }) : dataTable(['Buyer', 'Status', 'Matches', 'Attempts', 'Sent / due', 'Why / last error'],
      notices.map((n) => h('tr', { 'data-notification-id': n.id },
        h('td', {}, h('code', { text: n.buyerId })),
        h('td', {}, badge(n.status)),
        h('td', { text: String(n.matches.length) }),
        h('td', { text: String(n.attempts) }),
        h('td', { text: n.sentAt ? when(n.sentAt) : when(n.sendAt) }),
        h('td', {}, n.reason || (n.lastError ? [n.lastError.message, ' ', h('small', { class: 'code', text: n.lastError.code })] : ''))))));
  }

  async function loadOutbox(box) {
    const out = await api('GET', '/api/v1/notifications/outbox');
    if (out.transport !== 'outbox') return box.replaceChildren(h('p', { class: 'muted', text: 'Emails go to the SMTP server (SMTP_URL): nothing is kept here.' }));
    const view = h('div');
    box.replaceChildren(
      h('p', { class: 'muted', text: 'No SMTP_URL is set: emails are written to DATA_DIR/outbox as .eml files.' }),
      out.data.length === 0 ? h('p', { class: 'muted', text: 'The outbox is empty.' }) : dataTable(['Email', 'Written', 'Size', ''],
        out.data.map((m) => h('tr', {},
          h('td', {}, h('code', { text: m.notificationId })), h('td', { text: when(m.writtenAt) }), h('td', { text: `${m.size} bytes` }),
          h('td', {}, h('button', { type: 'button', onclick: async () => {
            const res = await fetch(`/api/v1/notifications/outbox/${encodeURIComponent(m.notificationId)}`, { credentials: 'same-origin' });
            view.replaceChildren(h('pre', { text: await res.text() }));
          } }, 'Show'))))),
      view);
  }

  // ---- the want-list widget ----------------------------------------------------------------
  // GET/PUT /api/v1/widget/settings: the origins whose pages may use the widget (If-Match: the
  // version read, so a change made elsewhere meanwhile is not overwritten), and the snippet; the
  // theme is the snippet's data-theme, chosen here.
  async function renderWidget() {
    let { data: settings, etag } = await request('GET', '/api/v1/widget/settings');
    const origins = h('div', { id: 'w-origins' });
    const error = h('div');
    const origin = h('input', { id: 'w-origin', name: 'origin', type: 'url', required: true, maxlength: 300, placeholder: 'https://shop.example', autocapitalize: 'none' });
    const add = h('form', { class: 'inline-form', 'aria-label': 'Add an allowed origin' },
      h('div', { class: 'grow' }, h('label', { for: 'w-origin' }, 'Add an origin'), origin),
      h('button', { type: 'submit', class: 'primary' }, 'Add origin'));
    const theme = h('select', { id: 'w-theme', name: 'theme' },
      [['auto', 'Auto (follows the visitor\'s light or dark setting)'], ['light', 'Light'], ['dark', 'Dark']].map(([value, text]) => h('option', { value }, text)));
    const snippet = h('code', { id: 'w-snippet' });
    const snippetText = () => `<script src="${settings.scriptUrl}" data-seller="${settings.seller}" data-theme="${theme.value}" async></script>`;

    function show() {
      origins.replaceChildren(settings.allowedOrigins.length === 0
        ? h('p', { class: 'notice', text: 'No origins listed: a page on any site may show your widget.' })
        : h('ul', { class: 'origins', 'aria-label': 'Allowed origins' }, settings.allowedOrigins.map((o) => h('li', {},
          h('code', { text: o }),
          h('button', { type: 'button', class: 'danger', 'aria-label': `Remove ${o}`, onclick: () => save(settings.allowedOrigins.filter((x) => x !== o), `Removed ${o}`) }, 'Remove')))));
      snippet.textContent = snippetText();
    }
    async function save(allowedOrigins, done) {
      try {
        ({ data: settings, etag } = await request('PUT', '/api/v1/widget/settings', { allowedOrigins }, { ifMatch: etag }));
        error.replaceChildren();
        toast(done);
        show();
        return true;
      } catch (err) {
        error.replaceChildren(errorLine(err, { allowedOrigins: 'The origin' }));
        if (err.status === 412) {
          ({ data: settings, etag } = await request('GET', '/api/v1/widget/settings'));
          show();
        }
        return false;
      }
    }
    add.addEventListener('submit', async (e) => {
      e.preventDefault();
      const value = origin.value.trim();
      if (await save([...settings.allowedOrigins, value], `Added ${value}`)) add.reset();
    });
    theme.addEventListener('change', show);
    page('Widget',
      h('p', { class: 'muted', text: 'The want-list widget lets buyers send you their want list from your own shop\'s pages. Paste the snippet where the form should appear.' }),
      h('div', { class: 'panel', 'aria-labelledby': 'w-origins-title' },
        h('h2', { id: 'w-origins-title', text: 'Allowed origins' }),
        h('p', { class: 'muted', text: 'Only pages of these sites may send want lists through your widget (a scheme, a host and a port if it is not the usual one — no path).' }),
        origins, add, error),
      h('div', { class: 'panel', 'aria-labelledby': 'w-snippet-title' },
        h('h2', { id: 'w-snippet-title', text: 'Embed snippet' }),
        h('label', { for: 'w-theme' }, 'Theme'), theme,
        h('pre', { class: 'snippet' }, snippet),
        h('div', { class: 'actions' }, copyButton('Copy snippet', snippetText, 'Snippet'))));
    show();
  }

  // ---- the account -------------------------------------------------------------------------
  function renderAccount(notice) {
    const has = session.user.hasPassword;
    const error = h('div');
    const current = has ? h('input', { id: 'a-current', name: 'currentPassword', type: 'password', autocomplete: 'current-password', required: true }) : null;
    const next = h('input', { id: 'a-new', name: 'newPassword', type: 'password', autocomplete: 'new-password', minlength: 12, maxlength: 1024, required: true });
    const again = h('input', { id: 'a-again', name: 'again', type: 'password', autocomplete: 'new-password', required: true });
    const form = h('form', { class: 'panel', 'aria-labelledby': 'a-password' },
      h('h2', { id: 'a-password', text: has ? 'Change your password' : 'Set a password' }),
      h('p', { class: 'muted', text: has
        ? 'Changing it signs you out everywhere else; this browser stays signed in.'
        : 'You sign in with one-time links for now. With a password you can also sign in with the form.' }),
      current ? [h('label', { for: 'a-current' }, 'Current password'), current] : null,
      h('label', { for: 'a-new' }, 'New password (at least 12 characters)'), next,
      h('label', { for: 'a-again' }, 'New password again'), again,
      error,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, has ? 'Change password' : 'Set password')));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      if (next.value !== again.value) return error.replaceChildren(problemLine('The two new passwords are not the same: type them again.'));
      try {
        const r = await api('PUT', '/portal/api/password', { currentPassword: current ? current.value : null, newPassword: next.value });
        session.user.hasPassword = true;
        renderAccount(r.replaced
          ? `Password changed.${r.sessionsEnded > 0 ? ` ${plural(r.sessionsEnded, 'other session')} signed out.` : ''}`
          : 'Password set: you can sign in with it from now on.');
      } catch (err) {
        error.replaceChildren(errorLine(err, { currentPassword: 'The current password', newPassword: 'The new password' }));
      }
    });
    page('Account',
      notice ? h('p', { class: 'notice', role: 'status', text: notice }) : null,
      h('div', { class: 'panel' },
        h('dl', { class: 'facts' },
          h('dt', { text: 'Email' }), h('dd', { text: session.user.email }),
          h('dt', { text: 'Workspace' }), h('dd', { text: `${session.workspace.name || session.workspace.slug} (${session.workspace.slug})` }),
          h('dt', { text: 'Role' }), h('dd', { text: session.user.role }),
          h('dt', { text: 'Signed in until' }), h('dd', { text: when(session.expiresAt) }))),
      form);
  }

  // ---- routing -----------------------------------------------------------------------------
  async function route() {
    if (!session) return renderSignIn();
    const [, section, id] = location.hash.split('/');
    try {
      if (section === 'webhooks' && id) await renderWebhook(decodeURIComponent(id));
      else if (section === 'webhooks') await renderWebhooks();
      else if (section === 'events') await renderEvents();
      else if (section === 'emails') await renderEmails();
      else if (section === 'widget') await renderWidget();
      else if (section === 'account') renderAccount();
      else await renderKeys();
    } catch (err) {
      if (session) page('Something went wrong', errorLine(err));
    }
  }

  /**
   * A one-time sign-in link: #link=psl_… (a fragment: never sent to a server, nor in a Referer).
   * Spent at once, and taken out of the address bar and the history. Also when it is pasted into
   * a portal tab already open (only the fragment changes then).
   */
  async function signInWithLink() {
    const link = /^#link=(psl_[A-Za-z0-9_-]+)$/.exec(location.hash);
    if (!link) return false;
    history.replaceState(null, '', location.pathname);
    try {
      session = await api('POST', '/portal/api/session', { token: link[1] });
      history.replaceState(null, '', `${location.pathname}#/keys`);
      await route();
    } catch (err) {
      session = null;
      renderSignIn(err.code === 'SIGN_IN_REFUSED'
        ? 'That sign-in link did not work: it was used already, or it is more than 30 minutes old. Ask for a new one (npm run cli -- user link), or sign in with your password.'
        : `That sign-in link could not be checked: ${describe(err).text}`);
    }
    return true;
  }

  async function start() {
    if (await signInWithLink()) return;
    try {
      session = await api('GET', '/portal/api/session');
    } catch {
      return renderSignIn();
    }
    await route();
  }

  window.addEventListener('hashchange', async () => {
    if (!(await signInWithLink())) await route();
  });
  start();
})();
