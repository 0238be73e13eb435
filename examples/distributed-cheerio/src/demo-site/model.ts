import { posix } from 'node:path';
import { pick, seededRandom, shuffle } from './random.js';

/** One `<a href>` on a demo page. */
export interface DemoLink {
  href: string;
  /** Canonical key of the page it leads to on this site, or null (another host, mailto). */
  target: string | null;
}

/** One file of the demo site. Query variants of `catalog.html` are different pages served by the same file. */
export interface DemoFile {
  path: string;
  title: string;
  links: DemoLink[];
}

/** The demo site and the numbers a correct crawl of it must give. */
export interface DemoSiteModel {
  files: DemoFile[];
  /** Path of the start page, relative to the site root. */
  startPath: string;
  /** Canonical keys (path, `?` and the query sorted by name) of every page a crawl from `startPath` reaches. */
  reachablePages: string[];
  expected: {
    /** Pages a crawl must handle, each once. */
    uniquePages: number;
    /** Requests offered to the queue: the seed plus every same-host link of every page handled. */
    enqueueAttempts: number;
    /** Offered requests that were already seen (`enqueueAttempts - uniquePages`). */
    duplicatesFiltered: number;
  };
}

type Pair = [string, string];
interface PageAddress {
  path: string;
  query: Pair[];
}

const CHAPTERS = 20;
const CATEGORIES = ['books', 'maps', 'tools'];
const CATALOG_PAGES = ['1', '2'];
const TRACKING: Pair[][] = [
  [['utm_source', 'newsletter'], ['utm_medium', 'email']],
  [['utm_campaign', 'spring']],
  [['fbclid', 'IwAR0x']],
  [['gclid', 'Cj0KCQ']],
];

/** The canonical key of an address: path, then the query sorted by name and value (as Scrapy's canonical URL sorts it). */
export function pageKey(address: PageAddress): string {
  if (address.query.length === 0) return address.path;
  const sorted = [...address.query].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  return `${address.path}?${sorted.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

function chapterPath(i: number): string {
  return `guide/chapter-${String(i).padStart(2, '0')}.html`;
}

/**
 * Builds the demo site: an index, an about page, 20 chapters, a catalog file addressed by 6 query strings, and an
 * orphan page nothing links to. Links come with shuffled query order, fragments, tracking parameters, absolute
 * paths and repeats, so a crawler that deduplicates naively fetches pages twice.
 *
 * @param seed - PRNG seed; the same seed gives the same site and the same expected counts
 */
export function buildDemoSiteModel(seed = 20_26): DemoSiteModel {
  const random = seededRandom(seed);
  const catalog: PageAddress[] = CATEGORIES.flatMap((category) =>
    CATALOG_PAGES.map((page): PageAddress => ({ path: 'catalog.html', query: [['category', category], ['page', page]] })),
  );
  const chapters: PageAddress[] = Array.from({ length: CHAPTERS }, (_, i) => ({ path: chapterPath(i + 1), query: [] }));
  const index: PageAddress = { path: 'index.html', query: [] };
  const about: PageAddress = { path: 'about.html', query: [] };
  const linkable = [index, about, ...chapters, ...catalog];

  /** One way of writing a link to `to` from a file at `fromPath`. */
  const variant = (fromPath: string, to: PageAddress): DemoLink => {
    const dir = posix.dirname(fromPath);
    const relative = posix.relative(dir === '.' ? '' : dir, to.path) || posix.basename(to.path);
    let href = random() < 0.2 ? `/${to.path}` : relative;
    let query = shuffle(random, to.query);
    if (random() < 0.35) {
      const tracking = pick(random, TRACKING);
      const at = Math.floor(random() * (query.length + 1));
      query = [...query.slice(0, at), ...tracking, ...query.slice(at)];
    }
    if (query.length > 0) href += `?${query.map(([k, v]) => `${k}=${v}`).join('&')}`;
    if (random() < 0.3) href += `#section-${1 + Math.floor(random() * 4)}`;
    return { href, target: pageKey(to) };
  };

  const linksTo = (fromPath: string, targets: PageAddress[]): DemoLink[] => {
    const links: DemoLink[] = [];
    for (const to of targets) {
      links.push(variant(fromPath, to));
      // The same page linked twice from one page, written the same or another way.
      if (random() < 0.25) links.push(random() < 0.5 ? { ...(links.at(-1) as DemoLink) } : variant(fromPath, to));
    }
    return links;
  };
  const elsewhere: DemoLink[] = [
    { href: 'https://example.com/elsewhere', target: null },
    { href: 'mailto:webmaster@example.com', target: null },
  ];
  const somePages = (n: number) => Array.from({ length: n }, () => pick(random, linkable));

  const files: DemoFile[] = [];
  files.push({
    path: 'index.html',
    title: 'Demo site',
    links: [
      ...linksTo('index.html', [about, ...chapters, ...catalog.filter((c) => c.query[1]?.[1] === '1')]),
      { href: '#top', target: pageKey(index) },
      ...elsewhere,
    ],
  });
  files.push({ path: 'about.html', title: 'About', links: [...linksTo('about.html', [index, chapters[0] as PageAddress]), ...elsewhere] });
  chapters.forEach((chapter, i) => {
    const neighbours = [chapters[i - 1], chapters[i + 1]].filter((c): c is PageAddress => c !== undefined);
    files.push({
      path: chapter.path,
      title: `Chapter ${i + 1}`,
      links: linksTo(chapter.path, [index, ...neighbours, ...somePages(3)]),
    });
  });
  files.push({ path: 'catalog.html', title: 'Catalog', links: linksTo('catalog.html', [...shuffle(random, catalog), ...somePages(2)]) });
  files.push({ path: 'orphan.html', title: 'Orphan (nothing links here)', links: linksTo('orphan.html', [index]) });

  // What a correct crawl does: walk from the start page, each canonical page once.
  const fileOf = new Map(files.map((f) => [f.path, f]));
  const seen = new Set<string>([pageKey(index)]);
  const order = [pageKey(index)];
  let enqueueAttempts = 1;
  for (let i = 0; i < order.length; i++) {
    const key = order[i] as string;
    const file = fileOf.get(key.split('?')[0] as string) as DemoFile;
    for (const link of file.links) {
      if (link.target === null) continue;
      enqueueAttempts++;
      if (!seen.has(link.target)) {
        seen.add(link.target);
        order.push(link.target);
      }
    }
  }
  return {
    files,
    startPath: 'index.html',
    reachablePages: order,
    expected: { uniquePages: order.length, enqueueAttempts, duplicatesFiltered: enqueueAttempts - order.length },
  };
}
