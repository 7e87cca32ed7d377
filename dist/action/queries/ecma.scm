; Tag patterns shared by JavaScript, TypeScript and TSX (inherited by javascript.scm and typescript.scm).
; Captures: @name inside @definition.<kind>; @name.reference for names used.
; When two patterns capture the same name, the one written first wins: specific before general.

; ── Definitions ──
(function_declaration name: (identifier) @name) @definition.function
(generator_function_declaration name: (identifier) @name) @definition.function
(class_declaration name: (_) @name) @definition.class
(method_definition name: (_) @name) @definition.method

; Top-level `const f = () => …` / `let f = function …` are functions (also exported).
(program
  [(lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
   (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))] @definition.function)
(program
  (export_statement
    declaration: [(lexical_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))
                  (variable_declaration (variable_declarator name: (identifier) @name value: [(arrow_function) (function_expression) (generator_function)]))] @definition.function))

; CommonJS: `module.exports.f = function …`, `exports.f = () => …`.
(program
  (expression_statement
    (assignment_expression
      left: (member_expression property: (property_identifier) @name)
      right: [(arrow_function) (function_expression)]) @definition.function))

; Other top-level bindings: `const` is a constant, `let` / `var` a variable.
(program (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant)
(program (export_statement declaration: (lexical_declaration kind: "const" (variable_declarator name: (identifier) @name)) @definition.constant))
(program (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.variable)
(program (export_statement declaration: (lexical_declaration (variable_declarator name: (identifier) @name)) @definition.variable))
(program (variable_declaration (variable_declarator name: (identifier) @name)) @definition.variable)
(program (export_statement declaration: (variable_declaration (variable_declarator name: (identifier) @name)) @definition.variable))

; ── References: calls, identifiers used, members, imports, JSX tags ──
(identifier) @name.reference
(member_expression property: (property_identifier) @name.reference)
(shorthand_property_identifier) @name.reference
