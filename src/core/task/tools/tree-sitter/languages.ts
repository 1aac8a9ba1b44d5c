/**
 * Which grammar parses which files, and which syntax nodes count as definitions. A walk (see
 * definitions.ts) reports definition nodes, goes into the bodies of the "nesting" ones (classes,
 * namespaces, impl blocks) and passes through "containers" (export statements, class bodies,
 * #ifdef blocks), but never into function bodies: local helpers are not part of the outline.
 */
import * as path from "node:path";
import type { Node } from "web-tree-sitter";

export interface LanguageSpec {
  /** The grammar's name in its .wasm file: tree-sitter-<grammar>.wasm. */
  readonly grammar: string;
  readonly extensions: readonly string[];
  /** Node types reported as definitions; a function decides for the ambiguous ones. */
  readonly definitions: Readonly<Record<string, true | ((node: Node) => boolean)>>;
  /** Definitions whose bodies hold more definitions. */
  readonly nesting: ReadonlySet<string>;
  /** Wrappers walked through without being reported. */
  readonly containers: ReadonlySet<string>;
}

const FUNCTION_VALUES = new Set(["arrow_function", "function_expression", "function", "generator_function", "class"]);

/** `const f = () => …`, `let C = class {…}`: a variable that holds a function or class. */
function holdsFunction(node: Node): boolean {
  return node.namedChildren.some(
    (child) => child.type === "variable_declarator" && FUNCTION_VALUES.has(child.childForFieldName("value")?.type ?? ""),
  );
}

/** A class field holding an arrow function (`onClick = () => {…}`) is a method in all but name. */
function fieldHoldsFunction(node: Node): boolean {
  return FUNCTION_VALUES.has(node.childForFieldName("value")?.type ?? "");
}

/** A C/C++ declaration that declares a function (a prototype), possibly through pointers. */
function declaresFunction(node: Node): boolean {
  let declarator = node.childForFieldName("declarator");
  for (let depth = 0; declarator && depth < 6; depth++) {
    if (declarator.type === "function_declarator") return true;
    declarator = declarator.childForFieldName("declarator");
  }
  return false;
}

/** `struct S { … }`, not a mere `struct S s;` mention. */
function hasBody(node: Node): boolean {
  return node.childForFieldName("body") !== null;
}

const ECMASCRIPT_DEFINITIONS = {
  class_declaration: true,
  abstract_class_declaration: true,
  function_declaration: true,
  generator_function_declaration: true,
  function_signature: true,
  method_definition: true,
  abstract_method_signature: true,
  interface_declaration: true,
  type_alias_declaration: true,
  enum_declaration: true,
  internal_module: true,
  module: true,
  lexical_declaration: holdsFunction,
  variable_declaration: holdsFunction,
  public_field_definition: fieldHoldsFunction,
  field_definition: fieldHoldsFunction,
} as const;

const ECMASCRIPT_NESTING = new Set(["class_declaration", "abstract_class_declaration", "internal_module", "module"]);
const ECMASCRIPT_CONTAINERS = new Set(["export_statement", "class_body", "statement_block", "expression_statement", "ambient_declaration"]);

const C_DEFINITIONS = {
  function_definition: true,
  declaration: declaresFunction,
  field_declaration: declaresFunction,
  struct_specifier: hasBody,
  union_specifier: hasBody,
  enum_specifier: hasBody,
  class_specifier: hasBody,
  type_definition: true,
  namespace_definition: true,
} as const;

const C_NESTING = new Set(["struct_specifier", "class_specifier", "namespace_definition"]);
const C_CONTAINERS = new Set([
  "preproc_ifdef",
  "preproc_if",
  "preproc_else",
  "preproc_elif",
  "declaration_list",
  "field_declaration_list",
  "template_declaration",
  "linkage_specification",
]);

export const LANGUAGES: readonly LanguageSpec[] = [
  { grammar: "typescript", extensions: [".ts", ".mts", ".cts"], definitions: ECMASCRIPT_DEFINITIONS, nesting: ECMASCRIPT_NESTING, containers: ECMASCRIPT_CONTAINERS },
  { grammar: "tsx", extensions: [".tsx"], definitions: ECMASCRIPT_DEFINITIONS, nesting: ECMASCRIPT_NESTING, containers: ECMASCRIPT_CONTAINERS },
  { grammar: "javascript", extensions: [".js", ".jsx", ".mjs", ".cjs"], definitions: ECMASCRIPT_DEFINITIONS, nesting: ECMASCRIPT_NESTING, containers: ECMASCRIPT_CONTAINERS },
  {
    grammar: "python",
    extensions: [".py", ".pyi"],
    definitions: { function_definition: true, class_definition: true },
    nesting: new Set(["class_definition"]),
    containers: new Set(["decorated_definition", "block"]),
  },
  {
    grammar: "go",
    extensions: [".go"],
    definitions: { function_declaration: true, method_declaration: true, type_spec: true, type_alias: true },
    nesting: new Set(),
    containers: new Set(["type_declaration"]),
  },
  {
    grammar: "rust",
    extensions: [".rs"],
    definitions: {
      function_item: true,
      function_signature_item: true,
      struct_item: true,
      enum_item: true,
      union_item: true,
      trait_item: true,
      impl_item: true,
      mod_item: true,
      type_item: true,
      macro_definition: true,
    },
    nesting: new Set(["trait_item", "impl_item", "mod_item"]),
    containers: new Set(["declaration_list"]),
  },
  {
    grammar: "java",
    extensions: [".java"],
    definitions: {
      class_declaration: true,
      interface_declaration: true,
      enum_declaration: true,
      record_declaration: true,
      annotation_type_declaration: true,
      method_declaration: true,
      constructor_declaration: true,
    },
    nesting: new Set(["class_declaration", "interface_declaration", "enum_declaration", "record_declaration", "annotation_type_declaration"]),
    containers: new Set(["class_body", "interface_body", "enum_body", "enum_body_declarations", "annotation_type_body"]),
  },
  { grammar: "c", extensions: [".c"], definitions: C_DEFINITIONS, nesting: C_NESTING, containers: C_CONTAINERS },
  {
    grammar: "cpp",
    // .h goes to C++: its grammar also reads plain C headers, the C grammar chokes on C++ ones.
    extensions: [".h", ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp"],
    definitions: C_DEFINITIONS,
    nesting: C_NESTING,
    containers: C_CONTAINERS,
  },
];

const BY_EXTENSION = new Map(LANGUAGES.flatMap((spec) => spec.extensions.map((ext) => [ext, spec] as const)));

/** The language of a file by its extension (case-insensitive), if one is supported. */
export function languageForFile(filePath: string): LanguageSpec | undefined {
  return BY_EXTENSION.get(path.extname(filePath).toLowerCase());
}

export const SUPPORTED_EXTENSIONS: readonly string[] = [...BY_EXTENSION.keys()];
