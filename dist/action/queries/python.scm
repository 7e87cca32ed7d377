; Python tag patterns. Functions inside a class become methods (decided from the container).

(class_definition name: (identifier) @name) @definition.class
(function_definition name: (identifier) @name) @definition.function

; Class attributes: `limit: int = 5`.
(class_definition
  body: (block (expression_statement (assignment left: (identifier) @name) @definition.field)))

; Module-level assignments: UPPER_CASE is a constant, anything else a variable.
((module (expression_statement (assignment left: (identifier) @name) @definition.constant))
  (#match? @name "^[A-Z][A-Z0-9_]*$"))
(module (expression_statement (assignment left: (identifier) @name) @definition.variable))

; References: every identifier (calls, attributes, imports, annotations).
(identifier) @name.reference
