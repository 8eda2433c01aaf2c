// The README is a front door and the reference lives in docs/: the README stays short, starts with
// the two commands, quotes no benchmark figure (they live in bench/RESULTS.md), every page of docs/
// is reachable from its index, and every relative link and anchor of the README, docs/ and the
// client's manual leads somewhere.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = join(__dirname, '..');
const DOCS = join(ROOT, 'docs');
const read = (path: string): string => readFileSync(path, 'utf8');
const README = read(join(ROOT, 'README.md'));

/** Markdown without its fenced code blocks (links and headings in code are not links or headings). */
const prose = (markdown: string): string => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, text] of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const base = text
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id] of markdown.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** Every link and image target of the Markdown's prose that is not a web address. */
function localLinks(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => m[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

const docPages = (): string[] => readdirSync(DOCS).filter((name) => name.endsWith('.md'));

describe('the README, a front door', () => {
  it('is at most about 200 lines', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('opens with what it is and one picture, then the two commands, before anything else to run', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(README)?.[1] ?? '';
    expect(firstBlock.split('\n').filter(Boolean).map((line) => line.replace(/\s+#.*$/, ''))).toEqual(['npm ci && npm start', 'npm ci && npm test']);
    const pictures = [...prose(README).matchAll(/!\[[^\]]+\]\(([^)]+)\)/g)].map((m) => m[1]);
    expect(pictures).toHaveLength(1);
    expect(README.indexOf(pictures[0])).toBeLessThan(README.indexOf('npm ci && npm start'));
  });

  it('quotes no benchmark figure: those live in bench/RESULTS.md', () => {
    const figures = [
      /\bp(50|90|95|99)\b/i,
      /\b[\d,.]+\s*(req|requests|events|appends|POSTs?)\s*(\/|per\s+)s(ec(ond)?)?\b/i,
      /\d\s*(µs|ms)\b/,
      /\d\s*(KiB|MiB|GiB)\b/,
      /\d\s*×/,
      /\bratio\b/i,
    ];
    for (const figure of figures) expect({ figure: String(figure), found: figure.exec(README)?.[0] ?? null }).toEqual({ figure: String(figure), found: null });
  });

  it('points to the docs index and to every guide', () => {
    const targets = new Set(localLinks(README).map((target) => target.replace(/#.*$/, '')));
    expect(targets).toContain('docs/README.md');
    for (const page of ['api', 'routes', 'demand', 'supply', 'matching', 'trading', 'live', 'automations', 'trust', 'tradegraph', 'webhooks', 'widget', 'portal', 'operations', 'configuration', 'architecture', 'testing', 'benchmarks']) {
      expect({ page, linked: targets.has(`docs/${page}.md`) }).toEqual({ page, linked: true });
    }
    expect(targets).toContain('libs/client/README.md');
  });
});

describe('docs/', () => {
  it('lists every page in its index (docs/README.md)', () => {
    const index = new Set(localLinks(read(join(DOCS, 'README.md'))).map((target) => target.replace(/#.*$/, '')));
    const missing = docPages().filter((page) => page !== 'README.md' && !index.has(page));
    expect(missing).toEqual([]);
  });

  const files = [join(ROOT, 'README.md'), join(ROOT, 'libs/client/README.md'), ...docPages().map((page) => join(DOCS, page))];

  it.each(files.map((file) => [relative(ROOT, file), file] as const))('%s: every relative link and anchor resolves', (_name, file) => {
    const broken: string[] = [];
    for (const target of localLinks(read(file))) {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const destination = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      if (!existsSync(destination)) {
        broken.push(`${target}: no such file`);
        continue;
      }
      if (anchor !== undefined && statSync(destination).isFile() && destination.endsWith('.md') && !anchorsOf(read(destination)).has(anchor)) {
        broken.push(`${target}: no heading with that anchor in ${relative(ROOT, destination)}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('reads anchors as GitHub makes them', () => {
    const anchors = anchorsOf("# A\n## Buyers' personal data (crypto-shredding)\n### Versions: `ETag` and `If-Match`\n## Answering a write (issue 32)\n## A\n```sh\n# not a heading\n```\n");
    expect([...anchors]).toEqual(['a', 'buyers-personal-data-crypto-shredding', 'versions-etag-and-if-match', 'answering-a-write-issue-32', 'a-1']);
  });
});
