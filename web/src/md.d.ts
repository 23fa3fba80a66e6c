// The rules pages' Markdown, bundled as text by esbuild (`--loader:.md=text`, build.sh).
declare module "*.md" {
  const text: string;
  export default text;
}
