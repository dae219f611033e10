package hiera

/*
#include <stdlib.h>
#include "hiera.h"
*/
import "C"

import (
	"encoding/json"
	"runtime"
	"unsafe"
)

// SessionOptions are the options of Hiera.SessionWith.
type SessionOptions struct {
	// Plan: the lookups of a plan (Puppet's script compiler): a hiera.yaml's
	// plan_hierarchy, when it has one, replaces its hierarchy.
	Plan bool
	// Hiera3Variables are the variables only a Hiera 3 global hiera.yaml
	// and its data see, as Puppet's Hiera::Scope gives them
	// (calling_class, calling_class_path, calling_module).
	Hiera3Variables map[string]any
}

func (o SessionOptions) wire() *OrderedMap {
	m := hiera3Options(o.Hiera3Variables)
	if o.Plan {
		m.Set("plan", true)
	}
	return m
}

// OverlayOptions are the options of Session.Overlay.
type OverlayOptions struct {
	// Hiera3Variables: as SessionOptions', the overlay's own.
	Hiera3Variables map[string]any
}

// KeysOptions are the options of Session.LookupKeys.
type KeysOptions struct {
	// Hiera3Variables: the Hiera 3 calling variables of the lookups' scope.
	Hiera3Variables map[string]any
}

// hiera3Options is an options object with only "hiera3_variables" (when
// vars is not nil).
func hiera3Options(vars map[string]any) *OrderedMap {
	m := NewOrderedMap()
	if vars != nil {
		m.Set("hiera3_variables", vars)
	}
	return m
}

// sessionFrom adopts the session a constructor made, or returns its error.
func sessionFrom(st Status, out *C.struct_hiera_session, errJSON *C.char) (*Session, error) {
	if st != StatusOK {
		return nil, statusError(st, takeString(errJSON))
	}
	return adopt(&Session{ptr: out}, func(s *Session) { s.Close() }), nil
}

// marshalC encodes v as wire JSON in a C string the caller frees.
func marshalC(v any) (*C.char, error) {
	body, err := Marshal(v)
	if err != nil {
		return nil, err
	}
	return cString(body)
}

// SessionWith is Session with options (hiera_session_new_with).
func (h *Hiera) SessionWith(scope map[string]any, opts SessionOptions) (*Session, error) {
	if scope == nil {
		scope = map[string]any{}
	}
	cs, err := marshalC(scope)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cs))
	co, err := marshalC(opts.wire())
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(co))
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.ptr == nil {
		return nil, closedError("Hiera")
	}
	var out *C.struct_hiera_session
	var errJSON *C.char
	st := Status(C.hiera_session_new_with(h.ptr, cs, co, &out, &errJSON))
	runtime.KeepAlive(h)
	return sessionFrom(st, out, errJSON)
}

// Overlay makes a session with s's variables and vars over them, as a
// Puppet class scope adds its variables to a compile's top scope
// (hiera_session_overlay). It shares s's snapshot and caches, so it costs
// what its own variables change; s may be closed first. Close the overlay
// like any session.
func (s *Session) Overlay(vars map[string]any, opts OverlayOptions) (*Session, error) {
	if vars == nil {
		vars = map[string]any{}
	}
	cv, err := marshalC(vars)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cv))
	co, err := marshalC(hiera3Options(opts.Hiera3Variables))
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(co))
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.ptr == nil {
		return nil, closedError("Session")
	}
	var out *C.struct_hiera_session
	var errJSON *C.char
	st := Status(C.hiera_session_overlay(s.ptr, cv, co, &out, &errJSON))
	runtime.KeepAlive(s)
	return sessionFrom(st, out, errJSON)
}

// LookupKeys looks up keys as Puppet's automatic parameter lookup does (a
// class's parameters): each key alone, first found, in order, up to the
// first that fails, whose Result carries the error; keys after it are not
// looked up, so fewer Results than keys come back then
// (hiera_lookup_keys). The error returned is for the whole call.
func (s *Session) LookupKeys(keys []string, opts KeysOptions) ([]Result, error) {
	if keys == nil {
		keys = []string{}
	}
	ck, err := marshalC(keys)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(ck))
	co, err := marshalC(hiera3Options(opts.Hiera3Variables))
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(co))
	s.mu.RLock()
	var out *C.char
	var st Status
	if s.ptr == nil {
		s.mu.RUnlock()
		return nil, closedError("Session")
	}
	st = Status(C.hiera_lookup_keys(s.ptr, ck, co, &out))
	runtime.KeepAlive(s)
	s.mu.RUnlock()
	text := takeString(out)
	if st != StatusOK {
		return nil, statusError(st, text)
	}
	var responses []response
	if err := json.Unmarshal([]byte(text), &responses); err != nil || len(responses) > len(keys) {
		return nil, internalError("unreadable hiera_lookup_keys answer for %d keys: %.200s", len(keys), text)
	}
	results := make([]Result, len(responses))
	for i, r := range responses {
		results[i] = r.result(keys[i], false)
	}
	return results, nil
}
