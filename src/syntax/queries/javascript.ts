// JavaScript (with JSX), TypeScript and TSX: definitions and parameter lists.
import { CONSTANT_NAME, type LanguageSpec } from './spec.js';

const DECLARATIONS = ['lexical_declaration', 'variable_declaration'];
const FUNCTION_VALUE = '[(arrow_function) (function_expression) (generator_function)]';

function sharedDefinitions(field: { node: string; name: string }): string {
  return `
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (_) @name) @definition.class
(class_body (method_definition name: (_) @name) @definition.method)
(class_body (${field.node} ${field.name}: (_) @name value: ${FUNCTION_VALUE}) @definition.method)
(variable_declarator name: (identifier) @name value: ${FUNCTION_VALUE}) @definition.function
(variable_declarator name: (identifier) @name value: (class)) @definition.class
(assignment_expression
  left: (member_expression property: (property_identifier) @name)
  right: ${FUNCTION_VALUE}
  (#not-eq? @name "exports")) @definition.function
${DECLARATIONS.map(
  (d) => `
(program (${d} (variable_declarator name: (identifier) @name) @definition.const) (#match? @name "${CONSTANT_NAME}"))
(program (export_statement declaration: (${d} (variable_declarator name: (identifier) @name) @definition.const)))`,
).join('')}
`;
}

const JS_PARAMETERS = `
(formal_parameters
  [(identifier) @param
   (assignment_pattern left: (identifier) @param)
   (rest_pattern (identifier) @param)]) @params
`;

const TS_PARAMETERS = `
(formal_parameters
  [(required_parameter pattern: (identifier) @param)
   (optional_parameter pattern: (identifier) @param)
   (required_parameter pattern: (rest_pattern (identifier) @param))]) @params
`;

const TS_DEFINITIONS = `
(abstract_class_declaration name: (_) @name) @definition.class
(class_body (abstract_method_signature name: (_) @name) @definition.method)
(class_body (method_signature name: (_) @name) @definition.method)
(function_signature name: (identifier) @name) @definition.function
(interface_declaration name: (_) @name) @definition.interface
(type_alias_declaration name: (_) @name) @definition.type
(enum_declaration name: (_) @name) @definition.enum
(internal_module name: (_) @name) @definition.module
`;

const JS_IDENTIFIERS = [
  'identifier',
  'property_identifier',
  'shorthand_property_identifier',
  'shorthand_property_identifier_pattern',
];

/** JavaScript's queries and node types (the grammar includes JSX). */
export const JAVASCRIPT: LanguageSpec = {
  definitions: sharedDefinitions({ node: 'field_definition', name: 'property' }),
  parameters: JS_PARAMETERS,
  identifierTypes: JS_IDENTIFIERS,
  wrappers: ['export_statement', 'lexical_declaration', 'variable_declaration', 'expression_statement'],
  leading: ['decorator'],
  separator: '.',
};

/** TypeScript's (and TSX's) queries and node types. */
export const TYPESCRIPT: LanguageSpec = {
  definitions: sharedDefinitions({ node: 'public_field_definition', name: 'name' }) + TS_DEFINITIONS,
  parameters: TS_PARAMETERS,
  identifierTypes: [...JS_IDENTIFIERS, 'type_identifier'],
  wrappers: JAVASCRIPT.wrappers,
  leading: ['decorator'],
  separator: '.',
};
