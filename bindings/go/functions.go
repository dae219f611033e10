package hiera

/*
#include <stdlib.h>
#include <hiera.h>
*/
import "C"

import (
	"encoding/json"
	"errors"
	"fmt"
	"runtime/cgo"
	"sync"
	"unsafe"
)

// FunctionKind is the function API of a Hiera backend function: which key
// of a hiera.yaml hierarchy entry names it.
type FunctionKind string

// The kinds of backend functions a Go program may register (WithFunction).
const (
	// FunctionDataHash (`data_hash: NAME`): called once per location and
	// Session; returns the location's whole hash (a map with string keys or
	// an *OrderedMap), or ErrNotFound when the location gives nothing. Its
	// values are then checked and interpolated by libhiera, as Puppet does.
	FunctionDataHash FunctionKind = "data_hash"
	// FunctionLookupKey (`lookup_key: NAME`): called per root key and
	// location; returns the key's value, or ErrNotFound. The value is taken
	// as it is (call Context.Interpolate to interpolate it).
	FunctionLookupKey FunctionKind = "lookup_key"
	// FunctionDataDig (`data_dig: NAME`): called per dotted key and
	// location, with the key's segments; returns the value of the whole
	// dotted key, or ErrNotFound.
	FunctionDataDig FunctionKind = "data_dig"
)

// ErrNotFound is what a Function returns (alone or wrapped) for "no value
// here", Puppet's `context.not_found`: the lookup goes on with the next
// location or level.
var ErrNotFound = errors.New("hiera: not found")

// Function is a Hiera backend function written in Go, registered with
// WithFunction: it gets the call's Context and returns the value, or
// ErrNotFound, or an error, which fails the lookup with its message (as a
// Puppet function's exception does).
//
// It runs on the goroutine that looks up, during the lookup, possibly on
// many goroutines at once and nested (a function that interpolates or
// looks up may see further calls before it returns): it must be safe for
// concurrent use. A panic is recovered and fails the lookup with its
// message; it must not call runtime.Goexit (nothing may unwind through
// libhiera). It may look up again through any Session.
type Function func(ctx *Context) (any, error)

// Warning is a warning Puppet would log during a lookup (WithWarnings): an
// undefined variable under StrictWarning, a data file that is not a hash,
// a hiera.yaml that is ignored.
type Warning struct {
	Message string
	// Kind is Puppet's `warn_once` kind ("undefined_variables",
	// "deprecations", ...): Puppet logs such a warning once per Key. Empty:
	// logged each time.
	Kind string
	Key  string
	File string // the file it is about, when known
	Line int    // its line, when known (0: unknown)
}

// OpenOption adds to what Open configures: backend functions written in Go
// (WithFunction) and a receiver of warnings (WithWarnings).
type OpenOption func(*hostState)

// WithFunction registers fn as the backend function `name` of `kind`: the
// hierarchy entries whose `data_hash`, `lookup_key` or `data_dig` names it
// call fn. Registering the same name and kind again replaces it. A
// hierarchy that names a function libhiera does not have and no Go
// function of that name and kind fails its lookups with Puppet's error,
// "Unable to find 'KIND' function named 'NAME'".
func WithFunction(name string, kind FunctionKind, fn Function) OpenOption {
	return func(h *hostState) {
		if fn != nil {
			h.functions[functionKey{name, string(kind)}] = fn
		}
	}
}

// WithWarnings sends the warnings Puppet would log to fn (by default they
// are dropped). fn runs on the goroutine that looks up, possibly on many at
// once; its panics are recovered and dropped.
func WithWarnings(fn func(Warning)) OpenOption {
	return func(h *hostState) { h.warn = fn }
}

type functionKey struct{ name, kind string }

// hostState is what a Hiera opened with OpenOptions gives libhiera as its
// hiera_host (through a cgo.Handle, released by libhiera's release
// callback when the configuration and its sessions are gone).
type hostState struct {
	functions map[functionKey]Function
	warn      func(Warning)
	mu        sync.Mutex
	caches    map[cacheKey]*functionCache
}

type cacheKey struct{ module, function string }

// cache is the function's cache for the layer's module (as Puppet keeps one
// per environment, module and function, for the environment's life: here,
// for the Hiera's).
func (h *hostState) cache(module, function string) *functionCache {
	h.mu.Lock()
	defer h.mu.Unlock()
	k := cacheKey{module, function}
	c := h.caches[k]
	if c == nil {
		c = &functionCache{m: map[string]any{}}
		h.caches[k] = c
	}
	return c
}

type functionCache struct {
	mu sync.Mutex
	m  map[string]any
}

// Context is one call of a Function, with what Puppet's function API gives
// a Hiera backend function (its options, the key or path, and Puppet's
// LookupContext: the cache, interpolation, explain). Interpolate and
// Explain may be used only during the call, on its goroutine; the cache
// outlives it.
type Context struct {
	Kind     FunctionKind
	Function string // the function's name as hiera.yaml gives it
	Layer    string // "global", "environment" or "module"
	Module   string // the module, in the module layer
	Entry    string // the hierarchy entry's name
	Index    int    // the entry's position in its hierarchy (from 0)
	// DefaultHierarchy: the entry is in a module's default_hierarchy.
	DefaultHierarchy bool
	// Location is the location (the path of `path`/`glob`/..., or a URI of
	// `uri`/`uris`), or "" for an entry without one.
	Location string
	// Options are the entry's interpolated `options` (nil when it has
	// none), decoded as Unmarshal decodes.
	Options map[string]any
	// Key is the root key (FunctionLookupKey) or the whole dotted key
	// (FunctionDataDig); "" for FunctionDataHash.
	Key string
	// Segments are the key's parts (FunctionDataDig): the root key, then
	// each subkey, a string or an int64 index.
	Segments []any

	answer *C.struct_hiera_answer
	cache  *functionCache
}

// NotFound returns (nil, ErrNotFound): `return ctx.NotFound()` reads as
// Puppet's `context.not_found`.
func (c *Context) NotFound() (any, error) { return nil, ErrNotFound }

// Interpolate interpolates v (its strings, in maps and slices too) in the
// scope of the lookup that called the function, as Puppet's
// `context.interpolate(value)` does, with the lookup, hiera, alias and
// literal methods. Errors are *Error values (KindInterpolation for a bad
// expression, ...); return one to fail the lookup.
func (c *Context) Interpolate(v any) (any, error) {
	if c.answer == nil {
		return nil, invalidArgument("hiera: Context.Interpolate after the function returned")
	}
	body, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	cs, err := cString(body)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cs))
	var out *C.char
	st := Status(C.hiera_answer_interpolate(c.answer, cs, &out))
	text := takeString(out)
	if st != StatusOK {
		return nil, statusError(st, text)
	}
	return decodeResult([]byte(text), false)
}

// Explain adds text to the lookup's explanation (Session.Explain, or a
// request WithExplain), as Puppet's `context.explain { text }` does;
// nothing when the lookup is not explained.
func (c *Context) Explain(text string) {
	if c.answer == nil {
		return
	}
	cs := C.CString(text)
	defer C.free(unsafe.Pointer(cs))
	C.hiera_answer_explain(c.answer, cs)
}

// Cache stores value under key in the function's cache and returns value
// (Puppet's `context.cache(key, value)`). The cache belongs to the
// function (per module layer) and lives as long as the Hiera; it is safe
// for concurrent use.
func (c *Context) Cache(key string, value any) any {
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	c.cache.m[key] = value
	return value
}

// CacheAll stores every entry of values (Puppet's `context.cache_all`).
func (c *Context) CacheAll(values map[string]any) {
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	for k, v := range values {
		c.cache.m[k] = v
	}
}

// CachedValue is the value cached under key, and whether there is one
// (Puppet's `context.cached_value` and `cache_has_key`).
func (c *Context) CachedValue(key string) (any, bool) {
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	v, ok := c.cache.m[key]
	return v, ok
}

// CachedEntries is a copy of the function's cache (Puppet's
// `context.cached_entries`).
func (c *Context) CachedEntries() map[string]any {
	c.cache.mu.Lock()
	defer c.cache.mu.Unlock()
	out := make(map[string]any, len(c.cache.m))
	for k, v := range c.cache.m {
		out[k] = v
	}
	return out
}

// callObject is the call as the C ABI hands it (hiera_call_fn).
type callObject struct {
	Kind             string          `json:"kind"`
	Function         string          `json:"function"`
	Layer            string          `json:"layer"`
	Module           string          `json:"module"`
	Entry            string          `json:"entry"`
	Index            int             `json:"index"`
	DefaultHierarchy bool            `json:"default_hierarchy"`
	Location         string          `json:"location"`
	Options          json.RawMessage `json:"options"`
	Key              string          `json:"key"`
	Segments         json.RawMessage `json:"segments"`
}

// run answers one call: the function's value, not found, or an error.
func (h *hostState) run(callJSON string, answer *C.struct_hiera_answer) (value any, found bool, err error) {
	var call callObject
	if err := json.Unmarshal([]byte(callJSON), &call); err != nil {
		return nil, false, fmt.Errorf("hiera: unreadable host call %.200s", callJSON)
	}
	if call.Kind == "variable" {
		return nil, false, nil // no variables of its own: undefined
	}
	fn := h.functions[functionKey{call.Function, call.Kind}]
	if fn == nil {
		return nil, false, fmt.Errorf("Unable to find '%s' function named '%s'", call.Kind, call.Function)
	}
	ctx := &Context{
		Kind: FunctionKind(call.Kind), Function: call.Function, Layer: call.Layer, Module: call.Module,
		Entry: call.Entry, Index: call.Index, DefaultHierarchy: call.DefaultHierarchy,
		Location: call.Location, Key: call.Key, answer: answer, cache: h.cache(call.Module, call.Function),
	}
	defer func() { ctx.answer = nil }()
	if len(call.Options) > 0 {
		o, err := unmarshal(call.Options, false)
		if m, ok := o.(map[string]any); err == nil && ok {
			ctx.Options = m
		}
	}
	if len(call.Segments) > 0 {
		s, err := unmarshal(call.Segments, false)
		if l, ok := s.([]any); err == nil && ok {
			ctx.Segments = l
		}
	}
	defer func() {
		if r := recover(); r != nil {
			value, found, err = nil, false, fmt.Errorf("the Go function '%s' panicked: %v", call.Function, r)
		}
	}()
	v, err := fn(ctx)
	if errors.Is(err, ErrNotFound) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	return v, true, nil
}

// answerCall runs the call and hands its outcome to libhiera.
func (h *hostState) answerCall(callJSON string, answer *C.struct_hiera_answer) {
	v, found, err := h.run(callJSON, answer)
	if err == nil && found {
		var body []byte
		if body, err = Marshal(v); err == nil {
			var cs *C.char
			if cs, err = cString(body); err == nil {
				C.hiera_answer_value(answer, cs)
				C.free(unsafe.Pointer(cs))
				return
			}
		}
		err = fmt.Errorf("the Go function's value cannot be encoded: %v", err)
	}
	if err != nil {
		msg := C.CString(stripNUL(err.Error()))
		C.hiera_answer_error(answer, msg)
		C.free(unsafe.Pointer(msg))
	}
}

func stripNUL(s string) string {
	out := []byte(s)
	n := 0
	for _, b := range out {
		if b != 0 {
			out[n] = b
			n++
		}
	}
	return string(out[:n])
}

// deliver passes a warning to the receiver.
func (h *hostState) deliver(warningJSON string) {
	if h.warn == nil {
		return
	}
	defer func() { _ = recover() }()
	var w Warning
	var o struct {
		Message string `json:"message"`
		Kind    string `json:"kind"`
		Key     string `json:"key"`
		File    string `json:"file"`
		Line    int    `json:"line"`
	}
	if json.Unmarshal([]byte(warningJSON), &o) != nil {
		w.Message = warningJSON
	} else {
		w = Warning{Message: o.Message, Kind: o.Kind, Key: o.Key, File: o.File, Line: o.Line}
	}
	h.warn(w)
}

// stateOf is the hostState behind a callback's user_data.
func stateOf(userData unsafe.Pointer) *hostState {
	h, _ := cgo.Handle(uintptr(userData)).Value().(*hostState)
	return h
}

//export libhieraGoCall
func libhieraGoCall(userData unsafe.Pointer, callJSON *C.char, answer *C.struct_hiera_answer) {
	defer func() {
		if r := recover(); r != nil {
			msg := C.CString(stripNUL(fmt.Sprintf("the Go host panicked: %v", r)))
			C.hiera_answer_error(answer, msg)
			C.free(unsafe.Pointer(msg))
		}
	}()
	stateOf(userData).answerCall(C.GoString(callJSON), answer)
}

//export libhieraGoWarn
func libhieraGoWarn(userData unsafe.Pointer, warningJSON *C.char) {
	defer func() { _ = recover() }()
	stateOf(userData).deliver(C.GoString(warningJSON))
}

//export libhieraGoRelease
func libhieraGoRelease(userData unsafe.Pointer) {
	defer func() { _ = recover() }()
	cgo.Handle(uintptr(userData)).Delete()
	liveHosts.Add(-1)
}
