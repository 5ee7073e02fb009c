// What the entries import besides the shell, as scripts/build-testing-pkg.sh builds them:
// workerd.ts's compiled module (`?module`, left to the consumer's bundler: wrangler), and the
// two Node built-ins node.ts reads the .wasm with (bundled to CommonJS, so `__dirname` is the
// bundle's directory). Declared here because the shell is type-checked without Node's types.
declare module "*.wasm?module" {
  const compiled: WebAssembly.Module;
  export default compiled;
}
declare module "node:fs" {
  export function readFileSync(path: string): Uint8Array<ArrayBuffer>;
}
declare module "node:path" {
  export function join(...paths: string[]): string;
}
declare const __dirname: string;
