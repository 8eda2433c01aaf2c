// Portal helpers for e2e tests: a workspace's person made through the CLI, a signed-in session
// (its cookie and CSRF token) over HTTP, and in a browser: a printed link opened as printed, and
// what a page shows wider than the screen.
import type { Page } from 'playwright-core';

import { cli } from './app-process';
import { http } from './http';

export const PASSWORD = 'correct horse battery staple';

export interface PortalUser {
  id: string;
  email: string;
  signInLink: string;
}

export async function createPortalUser(dataDir: string, workspace: string, email: string, password: string | null = PASSWORD): Promise<PortalUser> {
  const args = ['user', 'create', '--workspace', workspace, '--email', email, ...(password === null ? [] : ['--password-stdin'])];
  const result = await cli(dataDir, args, {}, password === null ? undefined : `${password}\n`);
  if (result.code !== 0) throw new Error(`user create failed (${result.code}): ${result.stderr}`);
  const body = result.json<{ user: { id: string; email: string }; signInLink: string }>();
  return { id: body.user.id, email: body.user.email, signInLink: body.signInLink };
}

export interface SignedIn {
  cookie: string;
  csrf: string;
  setCookie: string;
  body: { user: { id: string; email: string; hasPassword: boolean }; workspace: { id: string; slug: string }; csrfToken: string; expiresAt: string };
}

export async function signIn(url: string, credentials: { workspace: string; email: string; password: string } | { token: string }): Promise<SignedIn> {
  const res = await http<SignedIn['body']>(url, 'POST', '/portal/api/session', { body: credentials });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], csrf: res.body.csrfToken, setCookie, body: res.body };
}

/** The token of a printed sign-in link (`…/portal/#link=psl_…`). */
export const linkToken = (link: string) => link.slice(link.indexOf('#link=') + '#link='.length);

/**
 * What sticks out sideways on the page as it is now: the page itself scrolling horizontally
 * (scrollWidth > clientWidth), and every visible element reaching past the viewport's left or
 * right edge that is not inside a box that scrolls or clips it (a table's own box, a <pre>). An
 * empty list: usable at this width without scrolling sideways.
 */
export function pageOverflow(page: Page): Promise<string[]> {
  return page.evaluate(`(() => {
    const root = document.documentElement;
    const width = root.clientWidth;
    const problems = [];
    if (root.scrollWidth > width) problems.push('the page scrolls sideways: ' + root.scrollWidth + ' px wide in a ' + width + ' px viewport');
    const clipped = (el) => {
      for (let p = el.parentElement; p && p !== document.body && p !== root; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
    for (const el of document.body.querySelectorAll('*')) {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      if ((r.right > width + 0.5 || r.left < -0.5) && !clipped(el)) {
        problems.push(name(el) + ' spans ' + Math.round(r.left) + '..' + Math.round(r.right) + ' px (viewport ' + width + '): "' + (el.textContent || '').trim().slice(0, 60) + '"');
      }
    }
    return problems;
  })()`);
}

/** A printed sign-in link opened in the browser exactly as printed: signed in once the API Keys page shows. */
export async function openSignInLink(page: Page, link: string): Promise<void> {
  await page.goto(link);
  await page.getByRole('heading', { name: 'API Keys' }).waitFor();
}
