; Rust tag patterns. `impl T { … }` is a container (not a definition): its functions become T's methods.

(struct_item name: (type_identifier) @name) @definition.struct
(union_item name: (type_identifier) @name) @definition.struct
(enum_item name: (type_identifier) @name) @definition.enum
(trait_item name: (type_identifier) @name) @definition.trait
(type_item name: (type_identifier) @name) @definition.type
(function_item name: (identifier) @name) @definition.function
(function_signature_item name: (identifier) @name) @definition.method
(mod_item name: (identifier) @name) @definition.module
(macro_definition name: (identifier) @name) @definition.function
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(field_declaration name: (field_identifier) @name) @definition.field

(impl_item
  type: [(type_identifier) @container.name
         (generic_type type: (type_identifier) @container.name)
         (scoped_type_identifier name: (type_identifier) @container.name)]) @container

; References: identifiers, types, fields and methods called.
(identifier) @name.reference
(type_identifier) @name.reference
(field_identifier) @name.reference
