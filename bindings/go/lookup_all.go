package hiera

// #include <stdlib.h>
// #include <hiera.h>
import "C"

import (
	"encoding/json"
	"runtime"
	"sort"
)

// LookupAll looks up every key the session's node can look up (as
// `hiera-lookup --all`): the top-level keys of every data file its
// hierarchies reach in the global, environment and module layers and the
// keys lookup_options names. It returns one Result per key, sorted by key:
// found keys with their value, failed keys with their Err (one key's error
// does not stop the others); keys not found are left out. The error
// returned is for the whole call (a closed session, a configuration or
// data file of the global or environment layer that cannot be read).
// Safe to call from many goroutines on one Session.
func (s *Session) LookupAll() ([]Result, error) {
	s.mu.RLock()
	if s.ptr == nil {
		s.mu.RUnlock()
		return nil, closedError("Session")
	}
	var out *C.char
	st := Status(C.hiera_lookup_all(s.ptr, &out))
	runtime.KeepAlive(s)
	s.mu.RUnlock()
	text := takeString(out)
	if st != StatusOK {
		return nil, statusError(st, text)
	}
	var all struct {
		Values map[string]json.RawMessage `json:"values"`
		Errors map[string]json.RawMessage `json:"errors"`
	}
	if err := json.Unmarshal([]byte(text), &all); err != nil {
		return nil, internalError("unreadable hiera_lookup_all answer: %.200s", text)
	}
	results := make([]Result, 0, len(all.Values)+len(all.Errors))
	for k, v := range all.Values {
		results = append(results, response{"value": v}.result(k, false))
	}
	for k, e := range all.Errors {
		results = append(results, response{"error": e}.result(k, false))
	}
	sort.Slice(results, func(i, j int) bool { return results[i].Key < results[j].Key })
	return results, nil
}
