import type { Linter } from 'eslint';

/** The server's layers and their named exceptions (options of `structure/layers`). */
export declare const serverLayers: {
  layers: Array<{ name: string; files: string[] }>;
  allow: Array<{ from: string; to: string; why: string }>;
};
declare const config: Linter.Config[];
export default config;
