// The `yaml` package (eemeli/yaml: positions of every node, comments kept), loaded on first use: it is a bundle of
// its own, dist/yaml.js (scripts/bundles.cjs), which only the task document's features read, never dist/main.js.
import type * as Yaml from 'yaml';
import { later } from './later';

export type YamlLib = typeof Yaml;

/** The yaml package, loaded once, on the first call. */
export const loadYaml = later((): Promise<YamlLib> => import('yaml'));
