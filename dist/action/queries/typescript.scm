; inherits: ecma
; TypeScript only: types, interfaces, enums, namespaces, signatures, class fields.

(interface_declaration name: (type_identifier) @name) @definition.interface
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(abstract_class_declaration name: (type_identifier) @name) @definition.class
(internal_module name: (_) @name) @definition.module
(module name: (_) @name) @definition.module
(function_signature name: (identifier) @name) @definition.function
(method_signature name: (_) @name) @definition.method
(abstract_method_signature name: (_) @name) @definition.method
(public_field_definition name: (_) @name value: [(arrow_function) (function_expression)]) @definition.method
(public_field_definition name: (_) @name) @definition.field
(property_signature name: (_) @name) @definition.field

; Type references: annotations, generics, `implements`.
(type_identifier) @name.reference
