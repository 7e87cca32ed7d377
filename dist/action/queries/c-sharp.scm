; C# tag patterns.

(class_declaration name: (identifier) @name) @definition.class
(record_declaration name: (identifier) @name) @definition.class
(struct_declaration name: (identifier) @name) @definition.struct
(interface_declaration name: (identifier) @name) @definition.interface
(enum_declaration name: (identifier) @name) @definition.enum
(delegate_declaration name: (identifier) @name) @definition.type
(namespace_declaration name: (_) @name) @definition.module
(file_scoped_namespace_declaration name: (_) @name) @definition.module
(method_declaration name: (identifier) @name) @definition.method
(constructor_declaration name: (identifier) @name) @definition.method
(local_function_statement name: (identifier) @name) @definition.function
(property_declaration name: (identifier) @name) @definition.field

((field_declaration (modifier) @_mod (variable_declaration (variable_declarator name: (identifier) @name))) @definition.constant
  (#eq? @_mod "const"))
(field_declaration (variable_declaration (variable_declarator name: (identifier) @name))) @definition.field

; References: every identifier (calls, types, members, usings).
(identifier) @name.reference
