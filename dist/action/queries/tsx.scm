; inherits: typescript
; TSX is TypeScript plus JSX; JSX tag names are identifiers, so the inherited patterns cover them.
