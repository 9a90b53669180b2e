/** Types for `@aws-lite/dynamodb`, which ships none: an aws-lite plugin object, used only by `client.ts`. */
declare module '@aws-lite/dynamodb' {
  const plugin: { name: string; service: string; property: string; methods: Record<string, unknown> };
  export default plugin;
}
