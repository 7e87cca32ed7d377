; PHP tag patterns.

(class_declaration name: (name) @name) @definition.class
(interface_declaration name: (name) @name) @definition.interface
(trait_declaration name: (name) @name) @definition.trait
(enum_declaration name: (name) @name) @definition.enum
(function_definition name: (name) @name) @definition.function
(method_declaration name: (name) @name) @definition.method
(namespace_definition name: (namespace_name) @name) @definition.module
(const_declaration (const_element (name) @name)) @definition.constant
(property_declaration (property_element name: (variable_name (name) @name))) @definition.field

; References: every name (calls, classes, members, variables, uses).
(name) @name.reference
