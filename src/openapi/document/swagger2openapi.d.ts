/**
 * The part of swagger2openapi (which ships no types) that the loader uses to convert Swagger 2.0.
 */
declare module 'swagger2openapi' {
  namespace swagger2openapi {
    interface ConvertOptions {
      /** Fix what the converter knows how to fix (a missing `type` of a parameter...) instead of refusing. */
      patch?: boolean;
      /** Mark what cannot be converted losslessly (`x-s2o-warning`) instead of refusing. */
      warnOnly?: boolean;
      /** Copy objects the YAML shares through anchors instead of refusing them. */
      anchors?: boolean;
      /** The document's text, kept as is; without it the converter writes the document out as YAML. */
      text?: string;
    }
    interface ConvertResult {
      /** The OpenAPI 3.0.0 document. */
      openapi: Record<string, unknown>;
      /** How many problems `patch` fixed. */
      patches: number;
    }
  }
  const swagger2openapi: {
    /** Converts a parsed Swagger 2.0 document; rejects with an `S2OError` when it cannot. */
    convertObj(swagger: object, options: swagger2openapi.ConvertOptions): Promise<swagger2openapi.ConvertResult>;
  };
  export = swagger2openapi;
}
