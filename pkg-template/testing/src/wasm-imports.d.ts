// The .wasm imports of the server entries, as scripts/build-pkg.sh builds them: the Node
// entry's bytes (esbuild's binary loader), the edge entry's compiled module (`?module`, left to
// the consumer's bundler: wrangler, Next.js).
declare module "*.wasm" {
  const bytes: Uint8Array<ArrayBuffer>;
  export default bytes;
}
declare module "*.wasm?module" {
  const compiled: WebAssembly.Module;
  export default compiled;
}
