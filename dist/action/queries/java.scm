; Java tag patterns.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(interface_declaration name: (identifier) @name) @definition.interface
(annotation_type_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method

; `static final` fields are constants; other fields are fields.
((field_declaration (modifiers) @_mods declarator: (variable_declarator name: (identifier) @name)) @definition.constant
  (#match? @_mods "static")
  (#match? @_mods "final"))
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant

; References: identifiers (calls, fields, imports) and types.
(identifier) @name.reference
(type_identifier) @name.reference
