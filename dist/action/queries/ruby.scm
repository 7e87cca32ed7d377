; Ruby tag patterns. `def` inside a class becomes a method (decided from the container).

(class name: [(constant) @name (scope_resolution name: (_) @name)]) @definition.class
(module name: [(constant) @name (scope_resolution name: (_) @name)]) @definition.module
(method name: (_) @name) @definition.function
(singleton_method name: (_) @name) @definition.function
(assignment left: (constant) @name) @definition.constant

; References: method calls, local names and constants.
(identifier) @name.reference
(constant) @name.reference
