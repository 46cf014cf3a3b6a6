// @ts-check
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";

/**
 * The layers of src/, lowest first (docs/ARCHITECTURE.md): each imports only from layers below
 * it and its own. The ground floor (types, utils, config) imports nothing above it; types imports
 * nothing from the project at all.
 */
const LAYERS = [
  ["src/types"],
  ["src/utils", "src/config", "src/contracts"],
  ["src/nlu", "src/prompts", "src/messages"],
  ["src/db"],
  ["src/services"],
  ["src/graph"],
  ["src/transport"],
  ["src/app", "src/index.ts"],
];

/** One zone per layer: nothing in it may import from any layer above it. */
const layerZones = LAYERS.slice(0, -1).map((layer, index) => ({
  target: layer.map((dir) => `./${dir}`),
  from: LAYERS.slice(index + 1)
    .flat()
    .map((dir) => `./${dir}`),
  message: `${layer.join(" and ")} may not import from a layer above (see docs/ARCHITECTURE.md).`,
}));

export default tseslint.config(
  { ignores: ["dist/", "data/", "node_modules/", "coverage/"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    files: ["src/**/*.ts"],
    plugins: { "import-x": importX },
    settings: {
      "import-x/parsers": { "@typescript-eslint/parser": [".ts"] },
      "import-x/resolver-next": [createTypeScriptImportResolver({ project: "./tsconfig.json" })],
    },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            ...layerZones,
            {
              target: "./src/types",
              from: "./src",
              except: ["./types"],
              message: "src/types imports nothing from the project.",
            },
          ],
        },
      ],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: { process: "readonly", console: "readonly", URL: "readonly" } },
  },
);
