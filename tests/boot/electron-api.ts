/**
 * What Electron exports, read from `node_modules/electron/electron.d.ts`, and what the built
 * bundles take from it, read from `out/`: both with the TypeScript compiler's parser, never with
 * patterns over the text.
 *
 * A name Electron does not export crashes the real app as it loads (an ES module import of a
 * missing name is a link error), and a sandboxed preload can `require` only a few modules and a
 * few of Electron's; neither shows anywhere but in Electron, so the boot tests check both first.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '../..');
export const ELECTRON_DTS = resolve(ROOT, 'node_modules/electron/electron.d.ts');

/**
 * The values (not the types) of each namespace of `declare namespace Electron { namespace Main
 * { … } }`: its `const`s, classes, functions and enums.
 */
export function electronExports(dtsPath = ELECTRON_DTS): Map<string, Set<string>> {
  const source = ts.createSourceFile(
    dtsPath,
    readFileSync(dtsPath, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  const namespaces = new Map<string, Set<string>>();
  for (const statement of source.statements) {
    if (!ts.isModuleDeclaration(statement) || statement.name.text !== 'Electron') continue;
    const body = statement.body;
    if (!body || !ts.isModuleBlock(body)) continue;
    for (const inner of body.statements) {
      if (!ts.isModuleDeclaration(inner) || !inner.body || !ts.isModuleBlock(inner.body)) continue;
      const values = new Set<string>();
      for (const member of inner.body.statements) {
        if (ts.isVariableStatement(member)) {
          for (const declaration of member.declarationList.declarations) {
            if (ts.isIdentifier(declaration.name)) values.add(declaration.name.text);
          }
        } else if (
          (ts.isClassDeclaration(member) ||
            ts.isFunctionDeclaration(member) ||
            ts.isEnumDeclaration(member)) &&
          member.name
        ) {
          values.add(member.name.text);
        }
      }
      namespaces.set(inner.name.text, values);
    }
  }
  if (!namespaces.has('Main') || !namespaces.has('Common')) {
    throw new Error(`${dtsPath} has no Electron.Main or Electron.Common namespace`);
  }
  return namespaces;
}

/** What Electron's main process exports: `Main` and `Common`. */
export function mainProcessExports(dtsPath = ELECTRON_DTS): string[] {
  const namespaces = electronExports(dtsPath);
  return [...new Set([...(namespaces.get('Main') ?? []), ...(namespaces.get('Common') ?? [])])];
}

/**
 * What a sandboxed preload's `require('electron')` gives (Electron's "Process Sandboxing" page):
 * a subset of the renderer's modules.
 */
export const SANDBOXED_PRELOAD_MODULES = [
  'contextBridge',
  'crashReporter',
  'ipcRenderer',
  'nativeImage',
  'webFrame',
  'webUtils',
] as const;

/** What only Electron's other processes export (renderer, utility): absent in main. */
export function otherProcessExports(dtsPath = ELECTRON_DTS): string[] {
  const namespaces = electronExports(dtsPath);
  const main = new Set(mainProcessExports(dtsPath));
  const others = new Set<string>();
  for (const [name, values] of namespaces) {
    if (name === 'Main' || name === 'Common') continue;
    for (const value of values) if (!main.has(value)) others.add(value);
  }
  return [...others];
}

/** Where in a file, for messages: `out/main/index.js:5`. */
function where(file: ts.SourceFile, node: ts.Node): string {
  const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
  return `${relative(ROOT, file.fileName)}:${line + 1}`;
}

export interface ModuleUse {
  /** Every module specifier the file imports or requires, with where. */
  specifiers: Map<string, string[]>;
  /** Every name taken from `electron` (or `electron/main`), with where. */
  electronNames: Map<string, string[]>;
  /** Uses of Electron's module whose names cannot be read (passed around whole, `export *`). */
  unreadable: string[];
}

const ELECTRON_SPECIFIERS = new Set(['electron', 'electron/main', 'electron/renderer']);

function stringArgument(call: ts.CallExpression): string | undefined {
  const [first] = call.arguments;
  return call.arguments.length === 1 && first && ts.isStringLiteralLike(first)
    ? first.text
    : undefined;
}

function isRequireOrImport(node: ts.Node): node is ts.CallExpression {
  return (
    ts.isCallExpression(node) &&
    (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
      (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
  );
}

/**
 * The modules a built file loads, and the names it takes from Electron: named imports,
 * `require('electron').name`, destructuring, and property reads on a binding of the whole module
 * (`let electron = require("electron")` in the preload, a namespace or default import).
 */
export function moduleUse(path: string): ModuleUse {
  const file = ts.createSourceFile(
    path,
    readFileSync(path, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.JS,
  );
  const specifiers = new Map<string, string[]>();
  const electronNames = new Map<string, string[]>();
  const unreadable: string[] = [];
  const wholeBindings = new Map<string, ts.Node>();

  const add = (map: Map<string, string[]>, key: string, node: ts.Node) => {
    const list = map.get(key) ?? [];
    list.push(where(file, node));
    map.set(key, list);
  };

  function takeFromBinding(name: ts.BindingName, declaration: ts.Node): void {
    if (ts.isIdentifier(name)) {
      wholeBindings.set(name.text, declaration);
    } else if (ts.isObjectBindingPattern(name)) {
      for (const element of name.elements) {
        const key = element.propertyName ?? element.name;
        if (element.dotDotDotToken || !(ts.isIdentifier(key) || ts.isStringLiteral(key))) {
          unreadable.push(`${where(file, element)}: a rest or computed pattern over electron`);
        } else {
          add(electronNames, key.text, element);
        }
      }
    } else {
      unreadable.push(`${where(file, name)}: an array pattern over electron`);
    }
  }

  function visit(node: ts.Node): void {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const specifier = node.moduleSpecifier.text;
      add(specifiers, specifier, node);
      const clause = node.importClause;
      if (ELECTRON_SPECIFIERS.has(specifier) && clause) {
        if (clause.name) wholeBindings.set(clause.name.text, clause);
        const bindings = clause.namedBindings;
        if (bindings && ts.isNamespaceImport(bindings)) {
          wholeBindings.set(bindings.name.text, bindings);
        } else if (bindings) {
          for (const element of bindings.elements) {
            add(electronNames, (element.propertyName ?? element.name).text, element);
          }
        }
      }
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const specifier = node.moduleSpecifier.text;
      add(specifiers, specifier, node);
      if (ELECTRON_SPECIFIERS.has(specifier)) {
        if (node.exportClause && ts.isNamedExports(node.exportClause)) {
          for (const element of node.exportClause.elements) {
            add(electronNames, (element.propertyName ?? element.name).text, element);
          }
        } else {
          unreadable.push(`${where(file, node)}: export * from electron`);
        }
      }
    } else if (isRequireOrImport(node)) {
      const specifier = stringArgument(node);
      if (specifier === undefined) {
        unreadable.push(`${where(file, node)}: a require or import of a computed name`);
      } else {
        add(specifiers, specifier, node);
        if (ELECTRON_SPECIFIERS.has(specifier)) {
          const parent = node.parent;
          if (ts.isVariableDeclaration(parent) && parent.initializer === node) {
            takeFromBinding(parent.name, parent);
          } else if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
            add(electronNames, parent.name.text, parent);
          } else {
            unreadable.push(`${where(file, node)}: electron's module used whole`);
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  }
  visit(file);

  // Reads through a binding of the whole module: `electron.ipcRenderer`, `electron["x"]`.
  if (wholeBindings.size > 0) {
    const readBinding = (node: ts.Node): void => {
      if (ts.isIdentifier(node) && wholeBindings.has(node.text)) {
        const parent = node.parent;
        const declaration = wholeBindings.get(node.text);
        const declares =
          (declaration && ts.isVariableDeclaration(declaration) && declaration.name === node) ||
          (declaration && ts.isImportClause(declaration) && declaration.name === node) ||
          (declaration && ts.isNamespaceImport(declaration) && declaration.name === node);
        if (declares) {
          // The binding itself.
        } else if (ts.isPropertyAccessExpression(parent) && parent.expression === node) {
          add(electronNames, parent.name.text, parent);
        } else if (
          ts.isElementAccessExpression(parent) &&
          parent.expression === node &&
          ts.isStringLiteralLike(parent.argumentExpression)
        ) {
          add(electronNames, parent.argumentExpression.text, parent);
        } else if (!(ts.isPropertyAccessExpression(parent) && parent.name === node)) {
          unreadable.push(`${where(file, node)}: ${node.text} (electron's module) used whole`);
        }
      }
      ts.forEachChild(node, readBinding);
    };
    readBinding(file);
  }
  return { specifiers, electronNames, unreadable };
}

/**
 * The files an entry loads, itself first, by following its relative static imports (the chunks
 * a bundler split out), as Node would.
 */
export function moduleGraph(entry: string): string[] {
  const seen: string[] = [];
  const pending = [resolve(entry)];
  while (pending.length > 0) {
    const path = pending.shift() as string;
    if (seen.includes(path)) continue;
    seen.push(path);
    for (const specifier of moduleUse(path).specifiers.keys()) {
      if (specifier.startsWith('./') || specifier.startsWith('../')) {
        pending.push(resolve(dirname(path), specifier));
      }
    }
  }
  return seen;
}
