/**
 * What a published declaration file (dist/*.d.ts) says, read with the TypeScript parser: where it
 * writes `any`, and which of the types it declares a user cannot import by name.
 */
import ts from 'typescript';

/** Each `any` written as a type, as `line: text of that line`. Comments and string literals (`'any'`) are not types. */
export function anyTypes(text: string): string[] {
  const file = ts.createSourceFile('index.d.ts', text, ts.ScriptTarget.Latest, true);
  const lines = text.split('\n');
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.AnyKeyword) {
      const { line } = file.getLineAndCharacterOfPosition(node.getStart());
      found.push(`${line + 1}: ${lines[line].trim()}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** The interfaces, type aliases, classes and enums declared at the top level and exported neither where declared nor by an `export { }`. */
export function unexportedTypes(text: string): string[] {
  const file = ts.createSourceFile('index.d.ts', text, ts.ScriptTarget.Latest, true);
  const exported = new Set<string>();
  const declared: Array<{ name: string; exported: boolean }> = [];
  for (const statement of file.statements) {
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) exported.add((element.propertyName ?? element.name).text);
    } else if ((ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || ts.isClassDeclaration(statement) || ts.isEnumDeclaration(statement)) && statement.name) {
      const modifiers = ts.getModifiers(statement) ?? [];
      declared.push({ name: statement.name.text, exported: modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) });
    }
  }
  return [...new Set(declared.filter((d) => !d.exported && !exported.has(d.name)).map((d) => d.name))];
}

/** The values declared as exported (classes, constants, functions): what the module must export when run. */
export function declaredValues(text: string): string[] {
  const file = ts.createSourceFile('index.d.ts', text, ts.ScriptTarget.Latest, true);
  const exported = (statement: ts.Statement) => ts.canHaveModifiers(statement) && (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);
  const names = file.statements
    .filter(exported)
    .flatMap((statement) => (ts.isVariableStatement(statement) ? statement.declarationList.declarations.map((d) => d.name.getText()) : (ts.isClassDeclaration(statement) || ts.isFunctionDeclaration(statement)) && statement.name ? [statement.name.text] : []));
  return [...new Set(names)].sort();
}
