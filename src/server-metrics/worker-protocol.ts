// What crosses between the run and the scrapers' thread (scrape-worker.ts): plain data, structured-cloned.
import type { PromFamily } from '../telemetry/prometheus.js';
import type { Scrape, SeriesMeta } from './series.js';

export interface EndpointStats {
  url: string;
  scrapes: number;
  failed_scrapes: number;
  malformed_lines: number;
  last_error: string | null;
}

export interface ScrapeInit {
  candidates: { url: string; discovered: boolean }[];
  interval_ms: number;
}

/** One endpoint's state: its statistics and everything scraped so far. */
export interface EndpointSnapshot {
  url: string;
  discovered: boolean;
  stats: EndpointStats;
  meta: SeriesMeta[];
  families: Map<string, PromFamily>;
  scrapes: Scrape[];
}

export interface ScrapeStarted {
  kept: EndpointSnapshot[];
  dropped: { url: string; discovered: boolean; why: string }[];
}

export interface ScrapeStopped {
  endpoints: EndpointSnapshot[];
}
