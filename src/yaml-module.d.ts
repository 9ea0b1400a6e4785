/** A YAML file imported as a module: the browser build (rolldown.config.mjs) turns it into its parsed object. */
declare module '*.yaml' {
  const document: Record<string, unknown>;
  export default document;
}
