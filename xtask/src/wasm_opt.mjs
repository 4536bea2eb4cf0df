// wasm-opt -Oz through binaryen's own JS API, for many modules in one process: the npm package's `wasm-opt`
// command is binaryen compiled to wasm, and starting it costs about a second per module (the widget has about
// a hundred). The options are those of `wasm-opt -Oz --enable-reference-types`, whose output this equals byte
// for byte (with the features the module's target_features section names).
// Run by xtask/src/widget.rs: node --input-type=module --eval <this> <binaryen's index.js> <[[input, output], ...]>
import { readFileSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

const [binaryenPath, modules] = process.argv.slice(1);
const { default: binaryen } = await import(pathToFileURL(binaryenPath).href);
binaryen.setOptimizeLevel(2);
binaryen.setShrinkLevel(2);
binaryen.setGenerateStackIR(true);
binaryen.setOptimizeStackIR(true);
for (const [input, output] of JSON.parse(modules)) {
  const module = binaryen.readBinary(readFileSync(input));
  module.setFeatures(module.getFeatures() | binaryen.Features.ReferenceTypes);
  module.optimize();
  writeFileSync(output, module.emitBinary());
  module.dispose();
}
