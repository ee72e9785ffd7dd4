// The package ships no types; this is the shape its README documents.
declare module 'parse-prometheus-text-format' {
  export interface ParsedSample {
    value?: string;
    labels?: Record<string, string>;
    /** Histograms: the cumulative count per upper bound (`le`). */
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  export interface ParsedFamily {
    name: string;
    help: string;
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    metrics: ParsedSample[];
  }
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}
