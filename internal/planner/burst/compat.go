package burst

// InputError and Field are what Evaluate returned for invalid input before it returned *field.Error.
// Evaluate no longer returns them; they remain only so that the provider's node-pool sizing code,
// which moves to the sizing package, keeps compiling until then.
//
// Deprecated: use field.As on the error Evaluate returns.
type InputError struct {
	Field Field
	Msg   string
}

// Error returns the message.
func (e *InputError) Error() string { return e.Msg }

// Field is the former name of an input field.
//
// Deprecated: errors carry a field.Path.
type Field string

// FieldBudget is the former field of an invalid budget.
//
// Deprecated: an invalid budget is a plain error.
const FieldBudget Field = "budget"
