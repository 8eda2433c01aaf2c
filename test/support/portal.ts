// Portal helpers for e2e tests: a workspace's person made through the CLI, and a signed-in session
// (its cookie and CSRF token) over HTTP.
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
  body: { user: { id: string; email: string }; workspace: { id: string; slug: string }; csrfToken: string; expiresAt: string };
}

export async function signIn(url: string, credentials: { workspace: string; email: string; password: string } | { token: string }): Promise<SignedIn> {
  const res = await http<SignedIn['body']>(url, 'POST', '/portal/api/session', { body: credentials });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { cookie: setCookie.split(';')[0], csrf: res.body.csrfToken, setCookie, body: res.body };
}

/** The token of a printed sign-in link (`…/portal/#link=psl_…`). */
export const linkToken = (link: string) => link.slice(link.indexOf('#link=') + '#link='.length);
