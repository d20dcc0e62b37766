// The `yaml` package (eemeli/yaml: positions of every node, comments kept), loaded on first use: only the task
// document's and the CWL features read it, so it is a bundle of its own, dist/yaml.js (scripts/bundles.cjs), loaded by
// the first call, never with dist/main.js nor dist/features.js (dist/authoring.js loads it: test/build/bundle.test.ts).
import type * as Yaml from 'yaml';
import { later } from './later';

export type YamlLib = typeof Yaml;

/** The yaml package, loaded once, on the first call. */
export const loadYaml = later((): Promise<YamlLib> => import('yaml'));
