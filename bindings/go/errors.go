package hiera

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Status is the hiera_status a C call returned. The values are the C ABI's.
type Status int

// The statuses of the C ABI (include/hiera.h).
const (
	StatusOK              Status = 0 // success
	StatusNotFound        Status = 1 // the lookup found no value (not an error)
	StatusError           Status = 2 // the operation failed: an error object came back
	StatusNullArgument    Status = 3 // a pointer argument was NULL
	StatusInvalidArgument Status = 4 // an input was not UTF-8, not JSON or not the object expected
	StatusPanic           Status = 5 // a bug inside libhiera was caught
)

func (s Status) String() string {
	switch s {
	case StatusOK:
		return "HIERA_OK"
	case StatusNotFound:
		return "HIERA_NOT_FOUND"
	case StatusError:
		return "HIERA_ERROR"
	case StatusNullArgument:
		return "HIERA_NULL_ARGUMENT"
	case StatusInvalidArgument:
		return "HIERA_INVALID_ARGUMENT"
	case StatusPanic:
		return "HIERA_PANIC"
	}
	return fmt.Sprintf("hiera_status(%d)", int(s))
}

// ErrorKind says what went wrong. The first ten are the kinds of
// libhiera's error objects (the "Error kinds" of include/hiera.h, which the
// tests check them against); the others are made by this package.
type ErrorKind string

// Error kinds.
const (
	KindConfig          ErrorKind = "config"           // a hiera.yaml or an environment.conf is invalid
	KindParse           ErrorKind = "parse"            // a data file cannot be parsed
	KindType            ErrorKind = "type"             // a value has the wrong type (e.g. a merge of a String and a Hash)
	KindInterpolation   ErrorKind = "interpolation"    // a %{...} cannot be resolved
	KindRecursion       ErrorKind = "recursion"        // a lookup or interpolation recursed
	KindMerge           ErrorKind = "merge"            // the deep merge failed (bad options, arrays that cannot be sorted)
	KindLookup          ErrorKind = "lookup"           // any other lookup failure
	KindIO              ErrorKind = "io"               // a file cannot be read
	KindInvalidArgument ErrorKind = "invalid_argument" // bad options, scope or request (HIERA_INVALID_ARGUMENT, or refused before the call)
	KindLimit           ErrorKind = "limit"            // a bound on one lookup's work, memory or stack was reached (Options.Limits)
	KindNullArgument    ErrorKind = "null_argument"    // HIERA_NULL_ARGUMENT (never expected from this package)
	KindPanic           ErrorKind = "panic"            // HIERA_PANIC: a bug inside libhiera was caught; the handles stay usable
	KindClosed          ErrorKind = "closed"           // the Hiera or Session was closed
	KindInternal        ErrorKind = "internal"         // the library broke its contract (ABI mismatch, unreadable answer)
)

// LibraryKinds are the kinds of libhiera's error objects, in the order
// include/hiera.h lists them.
var LibraryKinds = []ErrorKind{
	KindConfig, KindParse, KindType, KindInterpolation, KindRecursion,
	KindMerge, KindLookup, KindIO, KindInvalidArgument, KindLimit,
}

// Error is every error this package returns. Use errors.As to read it, and
// errors.Is with the sentinels (ErrClosed, ErrPanic, ...) or any *Error to
// test its Kind:
//
//	var herr *hiera.Error
//	if errors.As(err, &herr) && herr.Kind == hiera.KindConfig { ... }
//	if errors.Is(err, hiera.ErrClosed) { ... }
type Error struct {
	Kind    ErrorKind
	Message string // Puppet's message for the library's kinds
	File    string // the file involved, when known
	Line    int    // its line (1-based), when known; 0 otherwise
	// Status is the C status that produced the error: StatusError for the
	// error entries of LookupMany, StatusOK (0) for errors made on the Go
	// side (closed handles, values that cannot be encoded).
	Status Status
	// Explain is the explanation, when the request asked for one.
	Explain string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("hiera: ")
	b.WriteString(string(e.Kind))
	b.WriteString(" error")
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.File != "" && !strings.Contains(e.Message, e.File) {
		fmt.Fprintf(&b, " (file: %s", e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ", line: %d", e.Line)
		}
		b.WriteString(")")
	}
	return b.String()
}

// Is reports whether target is an *Error of the same Kind, so that
// errors.Is(err, hiera.ErrClosed) and errors.Is(err, &hiera.Error{Kind:
// hiera.KindConfig}) work.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t != nil && t.Kind == e.Kind
}

// Sentinels for errors.Is; they match any *Error of their Kind.
var (
	ErrClosed          = &Error{Kind: KindClosed, Message: "use of a closed handle"}
	ErrPanic           = &Error{Kind: KindPanic, Message: "libhiera caught an internal panic"}
	ErrNullArgument    = &Error{Kind: KindNullArgument, Message: "a pointer argument was NULL"}
	ErrInvalidArgument = &Error{Kind: KindInvalidArgument}
	ErrInternal        = &Error{Kind: KindInternal}
)

func closedError(what string) error {
	return &Error{Kind: KindClosed, Message: "use of a closed " + what}
}

func invalidArgument(format string, args ...any) error {
	return &Error{Kind: KindInvalidArgument, Message: fmt.Sprintf(format, args...)}
}

func internalError(format string, args ...any) error {
	return &Error{Kind: KindInternal, Message: fmt.Sprintf(format, args...)}
}

// errorObject is the C ABI's error object.
type errorObject struct {
	Kind    string  `json:"kind"`
	Message string  `json:"message"`
	File    *string `json:"file"`
	Line    *int    `json:"line"`
	Explain *string `json:"explain"`
}

func (o *errorObject) toError(st Status) *Error {
	e := &Error{Kind: ErrorKind(o.Kind), Message: o.Message, Status: st}
	if o.File != nil {
		e.File = *o.File
	}
	if o.Line != nil {
		e.Line = *o.Line
	}
	if o.Explain != nil {
		e.Explain = *o.Explain
	}
	return e
}

// statusError turns a failing status and what came with it (an error
// object for HIERA_ERROR and HIERA_INVALID_ARGUMENT, nothing otherwise)
// into an *Error.
func statusError(st Status, text string) error {
	switch st {
	case StatusError, StatusInvalidArgument:
		var o errorObject
		if err := json.Unmarshal([]byte(text), &o); err != nil || o.Kind == "" {
			return &Error{Kind: KindInternal, Status: st,
				Message: fmt.Sprintf("%v without a readable error object: %q", st, text)}
		}
		return o.toError(st)
	case StatusNullArgument:
		return &Error{Kind: KindNullArgument, Message: ErrNullArgument.Message, Status: st}
	case StatusPanic:
		return &Error{Kind: KindPanic, Status: st,
			Message: "libhiera caught an internal panic (its message went to stderr); the handles stay usable"}
	}
	return &Error{Kind: KindInternal, Status: st, Message: fmt.Sprintf("unexpected status %v", st)}
}
