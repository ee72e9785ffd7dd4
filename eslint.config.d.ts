import type { Linter } from 'eslint';

/** The server's layers and their named exceptions (options of `structure/layers`). */
export declare const serverLayers: {
  layers: Array<{ name: string; files: string[] }>;
  allow: Array<{ from: string; to: string; why: string }>;
};
/** The web app's layers, the features' faces and the arrows up (eslint-plugin-boundaries). */
export declare const webLayers: {
  layers: Array<{ name: string; files: string[] }>;
  featureFace: string[];
  allow: Array<{ from: string; to: string; why: string }>;
};
/** `webLayers` as the plugin's settings and `boundaries/dependencies` options. */
export declare function webBoundaries(
  layers: typeof webLayers,
  rootPath?: string,
): { settings: Record<string, unknown>; options: Record<string, unknown> };
/** The files that write tables of others, with the tables and the reason (options of `structure/table-owner`). */
export declare const tableWriters: {
  exceptions: Array<{ files: string; tables: string[]; why: string }>;
};
declare const config: Linter.Config[];
export default config;
