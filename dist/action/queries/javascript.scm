; inherits: ecma
; JavaScript (and JSX) only: class fields are `field_definition` in this grammar.

(field_definition property: (_) @name value: [(arrow_function) (function_expression)]) @definition.method
(field_definition property: (_) @name) @definition.field
