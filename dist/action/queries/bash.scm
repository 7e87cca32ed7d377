; Bash tag patterns.

(function_definition name: (word) @name) @definition.function
(program (variable_assignment name: (variable_name) @name) @definition.variable)

; References: commands run (functions called) and variables expanded.
(command_name (word) @name.reference)
(variable_name) @name.reference
