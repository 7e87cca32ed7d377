; C and C++ tag patterns (C files are parsed with the C++ grammar).
; Aggregates count only with a body: `struct header *out` is a use, not a definition.

(function_definition declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(function_definition declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(function_definition declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(function_definition declarator: (reference_declarator (function_declarator declarator: (identifier) @name))) @definition.function
; Inline member functions, and out-of-class `Parser::parseHeader` (the scope is the container).
(function_definition declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method
(function_definition
  declarator: [(function_declarator declarator: (qualified_identifier scope: (_) @container.name name: (_) @name))
               (pointer_declarator declarator: (function_declarator declarator: (qualified_identifier scope: (_) @container.name name: (_) @name)))
               (reference_declarator (function_declarator declarator: (qualified_identifier scope: (_) @container.name name: (_) @name)))]) @definition.method

; Prototypes and member declarations.
(declaration declarator: (function_declarator declarator: (identifier) @name)) @definition.function
(declaration declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))) @definition.function
(declaration declarator: (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))) @definition.function
(field_declaration declarator: (function_declarator declarator: (field_identifier) @name)) @definition.method

(class_specifier name: (type_identifier) @name body: (_)) @definition.class
(struct_specifier name: (type_identifier) @name body: (_)) @definition.struct
(union_specifier name: (type_identifier) @name body: (_)) @definition.struct
(enum_specifier name: (type_identifier) @name body: (_)) @definition.enum
(type_definition declarator: (type_identifier) @name) @definition.type
(alias_declaration name: (type_identifier) @name) @definition.type
(namespace_definition name: (_) @name) @definition.module
(preproc_def name: (identifier) @name) @definition.constant
(preproc_function_def name: (identifier) @name) @definition.function
(field_declaration declarator: (field_identifier) @name) @definition.field
(field_declaration declarator: (pointer_declarator declarator: (field_identifier) @name)) @definition.field

; File-scope variables.
(translation_unit (declaration declarator: (init_declarator declarator: (identifier) @name)) @definition.variable)
(translation_unit (declaration declarator: (identifier) @name) @definition.variable)

; References: identifiers, types, fields, namespaces.
(identifier) @name.reference
(type_identifier) @name.reference
(field_identifier) @name.reference
(namespace_identifier) @name.reference
