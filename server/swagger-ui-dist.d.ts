declare module 'swagger-ui-dist/absolute-path.js' {
  /** The folder holding Swagger UI's built files. */
  export default function getAbsoluteFSPath(): string;
}
