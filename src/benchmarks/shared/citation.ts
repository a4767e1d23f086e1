/**
 * Where a published number comes from, so a reader can open the source and
 * find it: the work, the page to open (an arXiv abstract, or the URL the
 * number was published at) and the table or figure inside it.
 */

/** A paper or page that publishes numbers. */
export interface Work {
  /** Short name, e.g. "RealMem (Bian et al., 2026)". */
  work: string;
  /** The arXiv identifier when the work is an arXiv paper. */
  arxiv?: string;
  /** The page to open when the work is not on arXiv (a blog, a README at a commit). */
  url?: string;
}

export interface Citation {
  work: string;
  arxiv?: string;
  /** The page to open. */
  url: string;
  /** Where in the work the numbers are: "Table 3", "Figure 3", or what the page calls them. */
  where: string;
}

export function arxivUrl(id: string): string {
  return `https://arxiv.org/abs/${id}`;
}

export function cite(work: Work, where: string): Citation {
  const url = work.arxiv ? arxivUrl(work.arxiv) : work.url;
  if (!url) throw new Error(`citation of ${work.work}: give an arXiv id or a URL`);
  return { work: work.work, ...(work.arxiv ? { arxiv: work.arxiv } : {}), url, where };
}

/** One line a reader can follow: "RealMem (Bian et al., 2026), arXiv 2601.06966, Table 3". */
export function citationText(c: Citation): string {
  return c.arxiv ? `${c.work}, arXiv ${c.arxiv}, ${c.where}` : `${c.work}, ${c.where}, ${c.url}`;
}
