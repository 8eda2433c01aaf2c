// The web portal's page script: sign-in, then API keys, webhooks (their deliveries, attempts,
// payloads and replay), the event log and the buyer emails (settings, preview, recent emails, the
// outbox) — each read and changed through the API's own routes
// (/api/v1/…), signed in with the session cookie, every change sending the session's CSRF token.
// Plain DOM, no dependencies; every piece of data goes in with textContent (no HTML is built from
// data), so the strict CSP (no inline script or style) holds.
(function () {
  'use strict';

  const SCOPES = ['read:requests', 'write:requests', 'read:inventory', 'write:inventory', 'read:trades', 'write:trades', 'read:webhooks', 'write:webhooks', 'admin'];
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
  function toast(message) {
    const p = h('p', { text: message });
    toastBox.append(p);
    setTimeout(() => p.remove(), 4000);
  }
  function page(title, ...content) {
    const main = h('main', { id: 'main' }, h('h1', { text: title }), ...content);
    app.replaceChildren(top(), main);
    return main;
  }

  // ---- the API -----------------------------------------------------------------------------
  async function api(method, path, body) {
    const headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (method !== 'GET' && session) headers['x-csrf-token'] = session.csrfToken;
    const res = await fetch(path, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const data = text ? JSON.parse(text) : null;
    if (!res.ok) {
      const error = new Error((data && data.message) || `HTTP ${res.status}`);
      error.status = res.status;
      error.code = data && data.code;
      if (res.status === 401 && path.startsWith('/api/v1/')) {
        session = null;
        renderSignIn('Your session has ended: sign in again.');
      }
      throw error;
    }
    return data;
  }
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
  function errorLine(error) {
    return h('p', { class: 'error', role: 'alert', text: `${error.code ? `${error.code}: ` : ''}${error.message}` });
  }
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

  // ---- sign-in and the frame ---------------------------------------------------------------
  function renderSignIn(notice) {
    const error = h('div', { 'aria-live': 'assertive' });
    const form = h('form', { class: 'panel signin', 'aria-labelledby': 'signin-title' },
      h('h1', { id: 'signin-title', text: 'Sign in to the portal' }),
      notice ? h('p', { class: 'muted', text: notice }) : null,
      h('label', { for: 'workspace' }, 'Workspace'), h('input', { id: 'workspace', name: 'workspace', type: 'text', autocomplete: 'organization', required: true }),
      h('label', { for: 'email' }, 'Email'), h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'username', required: true }),
      h('label', { for: 'password' }, 'Password'), h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true }),
      error,
      h('div', { class: 'actions' }, h('button', { type: 'submit', class: 'primary' }, 'Sign in')),
      h('p', { class: 'muted', text: 'No password yet? Ask for a sign-in link: npm run cli -- user link --workspace <slug> --email <you>' }),
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
    const link = (id, text) => h('a', { href: `#/${id}`, 'aria-current': current === id ? 'page' : null }, text);
    return h('header', { class: 'top' },
      h('span', { class: 'brand', text: session.workspace.name || session.workspace.slug }),
      h('nav', { 'aria-label': 'Sections' }, link('keys', 'API Keys'), link('webhooks', 'Webhooks'), link('events', 'Events'), link('emails', 'Buyer emails')),
      h('span', { class: 'who', text: session.user.email }),
      h('button', { type: 'button', onclick: signOut }, 'Sign out'),
    );
  }

  async function signOut() {
    try {
      await api('DELETE', '/portal/api/session');
    } finally {
      session = null;
      location.hash = '';
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
        const secret = h('code', { id: 'new-secret', text: key.secret });
        created.replaceChildren(h('div', { class: 'panel secret', role: 'region', 'aria-label': 'New API key' },
          h('strong', { text: `Key “${key.name}” created (${key.scopes.join(', ')}).` }),
          h('p', { text: 'Copy the secret now: it is shown only once.' }), secret,
          h('button', { type: 'button', onclick: async () => { await navigator.clipboard.writeText(key.secret).then(() => toast('Secret copied'), () => toast('Copy failed: select the text instead')); } }, 'Copy secret')));
        form.reset();
        error.replaceChildren();
        await loadKeys(list);
      } catch (err) {
        error.replaceChildren(errorLine(err));
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
      h('td', {}, k.status === 'active' ? h('button', { type: 'button', class: 'danger', onclick: () => revoke(k, list) }, `Revoke`) : h('span', { class: 'muted', text: when(k.revokedAt) }))));
    list.replaceChildren(keys.length === 0 ? h('p', { class: 'muted', text: 'No keys yet.' }) : h('table', {},
      h('thead', {}, h('tr', {}, ['Name', 'Scopes', 'Created', 'Last used', 'Status', ''].map((t) => h('th', { scope: 'col', text: t })))), h('tbody', {}, rows)));
  }

  async function revoke(key, list) {
    if (!(await confirmDialog(`Revoke “${key.name}”? Requests with it are refused (401) from now on.`, 'Revoke key'))) return;
    await api('DELETE', `/api/v1/api-keys/${encodeURIComponent(key.id)}`);
    toast(`Revoked “${key.name}”`);
    await loadKeys(list);
  }

  // ---- webhooks ----------------------------------------------------------------------------
  function eventBoxes(all, chosen) {
    return h('fieldset', {}, h('legend', { text: 'Events' }), all.map((t) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'events', value: t, checked: chosen.includes(t) }), t)));
  }
  const checked = (form, name) => [...form.querySelectorAll(`input[name="${name}"]:checked`)].map((i) => i.value);

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
        secret.replaceChildren(h('div', { class: 'panel secret' }, h('strong', { text: 'Webhook created. Its signing secret, shown once:' }), h('code', { text: created.secret })));
        form.reset();
        error.replaceChildren();
        await loadWebhooks(list);
      } catch (err) {
        error.replaceChildren(errorLine(err));
      }
    });
    page('Webhooks', secret, h('h2', { text: 'Webhooks' }), list, form);
    await loadWebhooks(list);
  }

  async function loadWebhooks(list) {
    const hooks = (await api('GET', '/api/v1/webhooks?limit=100')).data;
    list.replaceChildren(hooks.length === 0 ? h('p', { class: 'muted', text: 'No webhooks yet.' }) : h('table', {},
      h('thead', {}, h('tr', {}, ['URL', 'Events', 'Status', 'Description'].map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, hooks.map((w) => h('tr', {},
        h('td', {}, h('a', { href: `#/webhooks/${encodeURIComponent(w.id)}` }, w.url)),
        h('td', {}, h('code', { text: w.events.join(', ') })), h('td', {}, badge(w.status)), h('td', { text: w.description || '' }))))));
  }

  async function renderWebhook(id) {
    const all = await types();
    const hook = await api('GET', `/api/v1/webhooks/${encodeURIComponent(id)}`);
    const error = h('div');
    const result = h('div', { 'aria-live': 'polite' });
    const edit = h('form', { class: 'panel', 'aria-labelledby': 'edit-webhook' },
      h('h2', { id: 'edit-webhook', text: 'Settings' }),
      h('label', { for: 'edit-url' }, 'URL'), h('input', { id: 'edit-url', name: 'url', type: 'url', required: true, value: hook.url }),
      h('label', { for: 'edit-description' }, 'Description'), h('input', { id: 'edit-description', name: 'description', type: 'text', value: hook.description || '' }),
      eventBoxes(all, hook.events),
      h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'enabled', checked: hook.status === 'enabled' }), 'Enabled'),
      error,
      h('div', { class: 'actions' },
        h('button', { type: 'submit', class: 'primary' }, 'Save'),
        h('button', { type: 'button', onclick: sendTest }, 'Send a test event')),
      result);
    edit.addEventListener('submit', async (e) => {
      e.preventDefault();
      const f = new FormData(edit);
      try {
        await api('PATCH', `/api/v1/webhooks/${encodeURIComponent(id)}`, { url: f.get('url'), description: f.get('description') || null, events: checked(edit, 'events'), enabled: f.get('enabled') === '' || f.get('enabled') === 'on' });
        error.replaceChildren();
        toast('Webhook saved');
      } catch (err) {
        error.replaceChildren(errorLine(err));
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
    const replayAll = h('button', { type: 'button', class: 'primary', id: 'replay-all' }, 'Replay all shown');
    const filterQuery = () => ({ eventType: typeSelect.value, status: statusSelect.value, from: isoOf(from.value), to: isoOf(to.value) });
    let shown = [];
    async function loadDeliveries() {
      shown = [];
      let cursor = null;
      do {
        const pageOf = await api('GET', `/api/v1/webhooks/${encodeURIComponent(id)}/deliveries${query({ ...filterQuery(), limit: '100', cursor })}`);
        shown.push(...pageOf.data);
        cursor = pageOf.nextCursor;
      } while (cursor && shown.length < 1000);
      replayAll.textContent = `Replay all ${shown.length} shown`;
      replayAll.disabled = shown.length === 0;
      table.replaceChildren(shown.length === 0 ? h('p', { class: 'muted', text: 'No deliveries match.' }) : h('table', {},
        h('thead', {}, h('tr', {}, ['When', 'Event', 'Status', 'Attempts (response codes)', ''].map((t) => h('th', { scope: 'col', text: t })))),
        h('tbody', {}, shown.map((d) => h('tr', { 'data-delivery-id': d.id, 'data-status': d.status },
          h('td', { text: when(d.createdAt) }), h('td', {}, h('code', { text: d.eventType }), h('br'), h('small', { class: 'muted', text: d.eventId })),
          h('td', {}, badge(d.status)),
          h('td', { text: d.attempts.map((a) => a.statusCode ?? (a.error ? 'error' : '—')).join(' → ') || '—' }),
          h('td', {},
            h('button', { type: 'button', onclick: () => showDelivery(d.id) }, 'View'), ' ',
            h('button', { type: 'button', onclick: () => replay([d.eventId]) }, 'Replay')))))));
    }
    async function showDelivery(deliveryId) {
      const d = await api('GET', `/api/v1/webhooks/${encodeURIComponent(id)}/deliveries/${encodeURIComponent(deliveryId)}`);
      detail.replaceChildren(h('div', { class: 'panel', role: 'region', 'aria-label': 'Delivery' },
        h('h2', { text: `Delivery ${d.id}` }),
        h('table', {}, h('thead', {}, h('tr', {}, ['Attempt', 'Outcome', 'Code', 'Duration', 'Answer', 'When'].map((t) => h('th', { scope: 'col', text: t })))),
          h('tbody', {}, d.attempts.map((a) => h('tr', {}, h('td', { text: a.attempt ?? '—' }), h('td', {}, badge(a.outcome)), h('td', { text: a.statusCode ?? '—' }),
            h('td', { text: `${a.durationMs} ms` }), h('td', {}, h('code', { text: a.error || a.responseBody })), h('td', { text: when(a.attemptedAt) }))))),
        h('h2', { text: 'Payload' }), h('pre', { text: JSON.stringify(d.payload, null, 2) })));
    }
    async function replay(eventIds) {
      try {
        const r = await api('POST', `/api/v1/webhooks/${encodeURIComponent(id)}/replay`, { eventIds });
        toast(`Replay scheduled for ${r.scheduled} event${r.scheduled === 1 ? '' : 's'}`);
        await loadDeliveries();
      } catch (err) {
        toast(err.message);
      }
    }
    replayAll.addEventListener('click', async () => {
      const ids = [...new Set(shown.map((d) => d.eventId))];
      if (ids.length > 0 && (await confirmDialog(`Replay ${ids.length} event${ids.length === 1 ? '' : 's'} to ${hook.url}?`, 'Replay'))) await replay(ids);
    });
    filters.addEventListener('submit', (e) => {
      e.preventDefault();
      loadDeliveries().catch((err) => table.replaceChildren(errorLine(err)));
    });
    page(`Webhook ${hook.url}`, h('p', {}, h('a', { href: '#/webhooks' }, '← All webhooks'), ' ', badge(hook.status)), edit,
      h('div', { class: 'panel' }, h('h2', { text: 'Delivery history' }), filters, h('div', { class: 'actions' }, replayAll, h('button', { type: 'button', onclick: () => loadDeliveries() }, 'Refresh')), table), detail);
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
    more.addEventListener('click', () => load(false));
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
    filter.addEventListener('submit', (e) => { e.preventDefault(); loadNotices(list, buyer.value.trim()).catch((err) => list.replaceChildren(errorLine(err))); });
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
        error.replaceChildren(errorLine(err));
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
    box.replaceChildren(notices.length === 0 ? h('p', { class: 'muted', text: 'No emails yet.' }) : h('table', {},
      h('thead', {}, h('tr', {}, ['Buyer', 'Status', 'Matches', 'Attempts', 'Sent / due', 'Why / last error'].map((t) => h('th', { scope: 'col', text: t })))),
      h('tbody', {}, notices.map((n) => h('tr', { 'data-notification-id': n.id },
        h('td', {}, h('code', { text: n.buyerId })),
        h('td', {}, badge(n.status)),
        h('td', { text: String(n.matches.length) }),
        h('td', { text: String(n.attempts) }),
        h('td', { text: n.sentAt ? when(n.sentAt) : when(n.sendAt) }),
        h('td', { text: n.reason || (n.lastError ? `${n.lastError.code}: ${n.lastError.message}` : '') }))))));
  }

  async function loadOutbox(box) {
    const out = await api('GET', '/api/v1/notifications/outbox');
    if (out.transport !== 'outbox') return box.replaceChildren(h('p', { class: 'muted', text: 'Emails go to the SMTP server (SMTP_URL): nothing is kept here.' }));
    const view = h('div');
    box.replaceChildren(
      h('p', { class: 'muted', text: 'No SMTP_URL is set: emails are written to DATA_DIR/outbox as .eml files.' }),
      out.data.length === 0 ? h('p', { class: 'muted', text: 'The outbox is empty.' }) : h('table', {},
        h('thead', {}, h('tr', {}, ['Email', 'Written', 'Size', ''].map((t) => h('th', { scope: 'col', text: t })))),
        h('tbody', {}, out.data.map((m) => h('tr', {},
          h('td', {}, h('code', { text: m.notificationId })), h('td', { text: when(m.writtenAt) }), h('td', { text: `${m.size} bytes` }),
          h('td', {}, h('button', { type: 'button', onclick: async () => {
            const res = await fetch(`/api/v1/notifications/outbox/${encodeURIComponent(m.notificationId)}`, { credentials: 'same-origin' });
            view.replaceChildren(h('pre', { text: await res.text() }));
          } }, 'Show')))))),
      view);
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
      else await renderKeys();
    } catch (err) {
      if (session) page('Something went wrong', errorLine(err));
    }
  }

  async function start() {
    // A one-time sign-in link: #link=psl_… (a fragment: never sent to a server, nor in a Referer).
    const link = /^#link=(psl_[A-Za-z0-9_-]+)$/.exec(location.hash);
    if (link) {
      history.replaceState(null, '', location.pathname);
      try {
        session = await api('POST', '/portal/api/session', { token: link[1] });
        history.replaceState(null, '', `${location.pathname}#/keys`);
      } catch (err) {
        return renderSignIn(`That sign-in link did not work: ${err.message}`);
      }
    } else {
      try {
        session = await api('GET', '/portal/api/session');
      } catch {
        return renderSignIn();
      }
    }
    await route();
  }

  window.addEventListener('hashchange', () => route());
  start();
})();
