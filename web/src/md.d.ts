// The rules pages' Markdown, bundled as text by esbuild (`--loader:.md=text`, build.sh).
declare module "*.md" {
  const text: string;
  export default text;
}

// esbuild bundles every file a `require` of a template literal can name (rulestext.ts), and
// throws at run time for a name it did not find.
declare function require(path: string): string;
