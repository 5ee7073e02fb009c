// The .wasm imports of the entries, as scripts/build-testing-pkg.sh builds them: index.ts's
// bytes (esbuild's binary loader), workerd.ts's compiled module (`?module`, left to the
// consumer's bundler: wrangler).
declare module "*.wasm" {
  const bytes: Uint8Array<ArrayBuffer>;
  export default bytes;
}
declare module "*.wasm?module" {
  const compiled: WebAssembly.Module;
  export default compiled;
}
