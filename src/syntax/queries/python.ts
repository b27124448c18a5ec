// Python: definitions and parameter lists.
import { CONSTANT_NAME, type LanguageSpec } from './spec.js';

/** Python's queries and node types. */
export const PYTHON: LanguageSpec = {
  definitions: `
(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function
(module (expression_statement (assignment left: (identifier) @name) @definition.const) (#match? @name "${CONSTANT_NAME}"))
(module (type_alias_statement left: (type (identifier) @name)) @definition.type)
`,
  parameters: ['parameters', 'lambda_parameters']
    .map(
      (list) => `
(${list}
  [(identifier) @param
   (typed_parameter (identifier) @param)
   (default_parameter name: (identifier) @param)
   (typed_default_parameter name: (identifier) @param)
   (list_splat_pattern (identifier) @param)
   (dictionary_splat_pattern (identifier) @param)
   (typed_parameter (list_splat_pattern (identifier) @param))
   (typed_parameter (dictionary_splat_pattern (identifier) @param))]) @params`,
    )
    .join('\n'),
  identifierTypes: ['identifier'],
  wrappers: ['decorated_definition', 'expression_statement'],
  leading: ['decorator'],
  separator: '.',
};
