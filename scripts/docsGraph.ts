// `npm run docs:graph`: writes the compiled graph's Mermaid drawing into docs/ARCHITECTURE.md,
// between the graph markers. tests/docs/architecture.test.ts fails when they differ.
import { readFile, writeFile } from "node:fs/promises";
import { memoGraphMermaid } from "../src/graph/diagram.js";
import { ARCHITECTURE_DOC, replaceGraphBlock } from "./docsGraphBlock.js";

const doc = await readFile(ARCHITECTURE_DOC, "utf8");
await writeFile(ARCHITECTURE_DOC, replaceGraphBlock(doc, await memoGraphMermaid()));
process.stdout.write(`updated ${ARCHITECTURE_DOC}\n`);
