/** `get /pets/{petId}`: how the page and the mock name one operation to each other. */
export function operationKey(method: string, path: string): string {
  return `${method.toLowerCase()} ${path}`;
}
