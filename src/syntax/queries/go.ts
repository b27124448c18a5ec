// Go: definitions and parameter lists.
import type { LanguageSpec } from './spec.js';

/** Go's queries and node types. */
export const GO: LanguageSpec = {
  definitions: `
(function_declaration name: (identifier) @name) @definition.function
(method_declaration receiver: (parameter_list) @receiver name: (field_identifier) @name) @definition.method
(type_spec name: (type_identifier) @name type: (struct_type)) @definition.struct
(type_spec name: (type_identifier) @name type: (interface_type)) @definition.interface
(type_spec name: (type_identifier) @name) @definition.type
(type_alias name: (type_identifier) @name) @definition.type
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.const))
(source_file (var_declaration (var_spec name: (identifier) @name) @definition.variable))
(source_file (var_declaration (var_spec_list (var_spec name: (identifier) @name) @definition.variable)))
`,
  parameters: `
(parameter_list
  [(parameter_declaration name: (identifier) @param)
   (variadic_parameter_declaration name: (identifier) @param)]) @params
`,
  identifierTypes: ['identifier', 'field_identifier', 'type_identifier', 'package_identifier'],
  wrappers: ['type_declaration', 'const_declaration', 'var_declaration'],
  leading: [],
  separator: '.',
};
