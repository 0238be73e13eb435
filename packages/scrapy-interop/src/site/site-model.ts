/**
 * The generated site both fleets crawl: sections of numbered pages (`/a/0` ... `/a/<n-1>`, `/b/0` ...) that link to
 * each other, plus entry pages (`/seed/<j>`) that nothing links back to. A page's links depend on its path only, so a
 * query variant of a page links like the page. The links exercise what a shared dupefilter must merge or keep apart:
 * - a plain link, and the same link again (a duplicate on one page);
 * - a link with a `#top` fragment (the same request as the plain link for every recipe);
 * - query variants `?b=2&a=1` / `?a=1&b=2` (one request: the canonical URL sorts the query; another page than the
 *   plain one);
 * - an AJAX link `#!tab=<k>`: Scrapy 2.12 and older request `?_escaped_fragment_=tab%3D<k>`, a page of its own.
 */
export interface SiteModelOptions {
  /** Section names, each a path prefix. @defaultValue `['a', 'b']` */
  sections?: readonly string[];
  /** Pages per section. @defaultValue 30 */
  pagesPerSection?: number;
}

/** The link structure of the generated site. */
export class SiteModel {
  readonly sections: readonly string[];
  readonly pagesPerSection: number;

  /** @param options - see {@link SiteModelOptions} */
  constructor(options: SiteModelOptions = {}) {
    this.sections = options.sections ?? ['a', 'b'];
    this.pagesPerSection = options.pagesPerSection ?? 30;
    if (this.sections.length < 1 || !Number.isInteger(this.pagesPerSection) || this.pagesPerSection < 2) {
      throw new RangeError('SiteModel needs at least one section and two pages per section');
    }
  }

  /** The path of an entry page. */
  seed(j: number): string {
    return `/seed/${j}`;
  }

  /**
   * The hrefs on the page at `pathname` (query and fragment ignored), in document order, or `undefined` when there is
   * no such page (the server answers 404).
   */
  links(pathname: string): string[] | undefined {
    const n = this.pagesPerSection;
    const seed = /^\/seed\/(\d+)$/.exec(pathname);
    if (seed) {
      const j = Number(seed[1]);
      return this.sections.map((s, k) => `/${s}/${(j * 7 + k * 3) % n}`);
    }
    const page = /^\/([a-z]+)\/(\d+)$/.exec(pathname);
    if (!page || !this.sections.includes(page[1]!) || Number(page[2]) >= n) return undefined;
    const s = page[1]!;
    const i = Number(page[2]);
    const other = this.sections[(this.sections.indexOf(s) + 1) % this.sections.length]!;
    const next = `/${s}/${(i + 1) % n}`;
    const variant = `/${s}/${(i * 3 + 1) % n}`;
    return [
      next,
      `/${other}/${(i * 7 + 3) % n}#top`,
      i % 2 === 0 ? `${variant}?b=2&a=1` : `${variant}?a=1&b=2`,
      next,
      `/${s}/${(i * 5 + 2) % n}#!tab=${i % 3}`,
    ];
  }

  /** The HTML of a page: its links as anchors. */
  html(pathname: string): string | undefined {
    const links = this.links(pathname);
    if (!links) return undefined;
    const anchors = links
      .map((href) => `<li><a href="${href.replace(/&/g, '&amp;')}">${href}</a></li>`)
      .join('\n');
    return `<!doctype html>\n<html><head><title>${pathname}</title></head><body><ul>\n${anchors}\n</ul></body></html>\n`;
  }
}
