// Rust: definitions and parameter lists.
import type { LanguageSpec } from './spec.js';

/** Rust's queries and node types. */
export const RUST: LanguageSpec = {
  definitions: `
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.function
(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(impl_item type: (_) @name) @definition.impl
(type_item name: (type_identifier) @name) @definition.type
(const_item name: (identifier) @name) @definition.const
(static_item name: (identifier) @name) @definition.const
(mod_item name: (identifier) @name body: (declaration_list)) @definition.module
(macro_definition name: (identifier) @name) @definition.macro
`,
  parameters: `
(parameters (parameter pattern: (identifier) @param)) @params
(closure_parameters [(identifier) @param (parameter pattern: (identifier) @param)]) @params
`,
  identifierTypes: ['identifier', 'field_identifier', 'type_identifier'],
  wrappers: [],
  leading: ['attribute_item'],
  separator: '::',
};
