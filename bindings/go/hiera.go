// Package hiera looks up Hiera data as Puppet 7's lookup() does, through
// libhiera's C ABI (cgo). It uses only the standard library.
//
//	h, err := hiera.Open(hiera.Options{HieraConfig: "hiera.yaml", EnvironmentPath: "environments"})
//	if err != nil { ... }
//	defer h.Close()
//	s, err := h.Session(map[string]any{"trusted": map[string]any{"certname": "web01.example.com"}})
//	if err != nil { ... }
//	defer s.Close()
//	v, found, err := s.Lookup("ntp::servers", hiera.WithMerge(hiera.MergeUnique))
//
// A Hiera is an opened configuration; a Session is one scope (a node's
// facts and variables) bound to it, with its caches: create one per node
// compile. Both are safe for concurrent use by many goroutines, and Close
// (idempotent) may be called at any time: lookups in flight finish first,
// later calls return an error of Kind KindClosed. A finalizer frees a
// handle that was never closed, but Close is the idiom. A Session keeps its
// configuration alive, so the Hiera may be closed first.
//
// Values come back decoded as Unmarshal describes: integers as int64 (or
// *big.Int when they do not fit, so they stay exact), floats as float64,
// hashes as map[string]any (or *OrderedMap with WithOrderedMaps, keeping
// Hiera's key order), and the wire format's {"__type__": ...} objects as
// Symbol, Sensitive, []byte, Entries and Rich. LookupRaw returns the wire
// JSON itself. Scope values, defaults and overrides are encoded by Marshal.
//
// Backend functions written in Go (a Vault, HTTP or database source) are
// registered at Open with WithFunction: the hierarchy entries whose
// data_hash, lookup_key or data_dig names them call them from inside the
// lookup, with a Context that gives what Puppet's LookupContext gives.
//
// Linking: `#cgo pkg-config: libhiera` (the libhiera.pc that `make install`
// writes), or build with -tags hiera_nopkgconfig and set CGO_CFLAGS and
// CGO_LDFLAGS (see the README).
package hiera

/*
#include <stdlib.h>
#include <hiera.h>
*/
import "C"

import (
	"bytes"
	"encoding/json"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Version is the version of the loaded libhiera, e.g. "0.1.0".
func Version() string { return C.GoString(C.hiera_version()) }

// ABIVersion is the C ABI version of the loaded libhiera; it must equal
// HeaderABIVersion, which Open checks.
func ABIVersion() uint32 { return uint32(C.hiera_abi_version()) }

// HeaderABIVersion is the ABI version of the hiera.h this package was
// compiled with.
const HeaderABIVersion = uint32(C.HIERA_ABI_VERSION)

// Strict says what an undefined variable in an interpolation does, and
// whether a v3 hiera.yaml outside the global layer or a YAML data file that
// is not a hash is an error (Puppet's strict setting).
type Strict string

// The values of Options.Strict.
const (
	StrictOff     Strict = "off"
	StrictWarning Strict = "warning" // Puppet 7's default: Puppet's warning, on stderr
	StrictError   Strict = "error"   // Puppet 8's default
)

// Options are the settings of Open, with the meaning of hiera-lookup's
// flags. Empty fields take the library's defaults: "hiera.yaml",
// "environments", "production", Puppet 7, and the Puppet version's Strict
// (StrictWarning for 7, StrictError for 8). Relative paths are taken from
// the working directory at the time of Open.
type Options struct {
	HieraConfig     string // the global hiera.yaml
	EnvironmentPath string // the directory of the environments
	Environment     string // the environment's name
	Strict          Strict
	// Puppet is the Puppet the engine answers as: 7 (Puppet 7.23; 0 means
	// 7) or 8 (OpenVox/Puppet 8: Strict defaults to StrictError, and an
	// undefined variable in a v5 hierarchy's paths, globs, uris or
	// mapped_paths only warns). Open refuses other numbers.
	Puppet int
	// Limits bound the work, memory and stack of one lookup; a lookup that
	// reaches one fails with an *Error of Kind KindLimit. Nil keeps every
	// default.
	Limits *Limits
	// Confine reads only data and config files inside the directories the
	// configuration names (.. and symbolic links resolved; a file outside is
	// a KindIO error): for facts that cannot be trusted. Off by default, as
	// in Puppet.
	Confine bool
	// BaseModulePath is Puppet's basemodulepath: directories of modules
	// shared by all environments, searched after the environment's own
	// modules (or where its environment.conf puts $basemodulepath). Empty
	// by default: no base directories (Puppet's own default is
	// /etc/puppet/code/modules:/usr/share/puppet/modules on Debian,
	// /etc/puppetlabs/code/modules:/opt/puppetlabs/puppet/modules with the
	// AIO packages).
	BaseModulePath []string
	// ModulePath, when not nil, is the environment's whole modulepath (as
	// Puppet's --modulepath): environment.conf is then not read. A module is
	// in the first directory holding a directory of its name. An empty,
	// non-nil slice is a modulepath without directories.
	ModulePath []string
	// WorkingDirectory, when not empty, is where relative BaseModulePath and
	// ModulePath directories and the relative key paths of eyaml levels
	// (pkcs7_private_key, pkcs7_public_key) are taken from; empty: the
	// process's working directory when Open is called.
	WorkingDirectory string
	// EnvironmentDataProvider is Puppet's (deprecated) environment_data_provider
	// setting from puppet.conf: the Puppet 4 data provider ("none", "hiera",
	// "function") of an environment whose environment.conf names none; empty:
	// none.
	EnvironmentDataProvider string
	// HostFunctions names hierarchy functions libhiera has itself
	// (yaml_data, json_data, hocon_data, eyaml_lookup_key, ...) that a
	// function registered with WithFunction under the same name runs
	// instead; without one, such a level fails as an unknown function does.
	HostFunctions []string
	// FileCheckInterval is how long a stat of a configuration or data file
	// is trusted before the file is checked for changes again (whole
	// nanoseconds are sent as seconds; up to a year). Zero, the default, is
	// Puppet's own behaviour: every new session checks every file it uses
	// once. A service compiling many catalogs may trust them longer, as
	// Puppet Server trusts a cached environment for its environment_timeout:
	// a change is then seen at most that long after it is made. Open refuses
	// a negative interval.
	FileCheckInterval time.Duration
	// DisableFileWatch turns off, for this configuration, the watcher that
	// learns of changed files from the kernel (Linux inotify; on by default):
	// every new session then stats each file it uses once. Either way a new
	// session sees every change made before it started; see the README's
	// "Files that change". HIERA_WATCH_FILES=0 in the environment turns the
	// watcher off for the whole process.
	DisableFileWatch bool
}

// Limits are libhiera's bounds on one lookup (hiera_open's "limits"). A
// zero field keeps the library's default; see the README for the defaults.
type Limits struct {
	LookupDepth       int64 // lookups nested through interpolation (default 32)
	NestedLookups     int64 // nested lookups made for one lookup (default 100000)
	StringBytes       int64 // bytes of one interpolated string (default 16 MiB)
	InterpolatedBytes int64 // bytes all interpolations of one lookup produce (default 256 MiB)
	MergeEntries      int64 // entries at the top level of a merge result (default 1000000)
	NestedValues      int64 // values the nested lookups of one lookup return, written out (default 10000000)
}

func (o Options) wire() *OrderedMap {
	om := NewOrderedMap()
	for _, f := range []struct{ name, value string }{
		{"hiera_config", o.HieraConfig}, {"environmentpath", o.EnvironmentPath},
		{"environment", o.Environment}, {"strict", string(o.Strict)},
		{"working_directory", o.WorkingDirectory},
		{"environment_data_provider", o.EnvironmentDataProvider},
	} {
		if f.value != "" {
			om.Set(f.name, f.value)
		}
	}
	if o.Puppet != 0 {
		om.Set("puppet", int64(o.Puppet))
	}
	if o.Limits != nil {
		limits := NewOrderedMap()
		for _, f := range []struct {
			name  string
			value int64
		}{
			{"lookup_depth", o.Limits.LookupDepth}, {"nested_lookups", o.Limits.NestedLookups},
			{"string_bytes", o.Limits.StringBytes}, {"interpolated_bytes", o.Limits.InterpolatedBytes},
			{"merge_entries", o.Limits.MergeEntries}, {"nested_values", o.Limits.NestedValues},
		} {
			if f.value != 0 {
				limits.Set(f.name, f.value)
			}
		}
		om.Set("limits", limits)
	}
	if o.Confine {
		om.Set("confine", true)
	}
	if len(o.BaseModulePath) > 0 {
		om.Set("basemodulepath", stringsToAny(o.BaseModulePath))
	}
	if o.ModulePath != nil {
		om.Set("modulepath", stringsToAny(o.ModulePath))
	}
	if len(o.HostFunctions) > 0 {
		om.Set("host_functions", stringsToAny(o.HostFunctions))
	}
	if o.FileCheckInterval != 0 {
		om.Set("file_check_interval", o.FileCheckInterval.Seconds())
	}
	if o.DisableFileWatch {
		om.Set("watch_files", false)
	}
	return om
}

func stringsToAny(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// liveHandles counts the C handles this package holds (tests check that
// Close and the finalizers free them).
var liveHandles atomic.Int64

// cString copies JSON into C memory; free it with C.free. JSON text never
// holds a NUL byte (Marshal escapes it).
func cString(b []byte) (*C.char, error) {
	if bytes.IndexByte(b, 0) >= 0 {
		return nil, invalidArgument("JSON input contains a NUL byte")
	}
	return C.CString(string(b)), nil
}

// takeString copies a string that libhiera returned and frees it with
// hiera_string_free.
func takeString(p *C.char) string {
	if p == nil {
		return ""
	}
	s := C.GoString(p)
	C.hiera_string_free(p)
	return s
}

// Hiera is an opened configuration. Safe for concurrent use.
type Hiera struct {
	mu  sync.RWMutex
	ptr *C.struct_hiera
}

// Open opens a configuration. Nothing is read yet: configuration and data
// errors come at lookup time, as in Puppet. Errors: KindInvalidArgument
// (bad options), KindInternal (a libhiera with another ABI version).
//
// OpenOptions add backend functions written in Go (WithFunction) and a
// receiver of Puppet's warnings (WithWarnings).
func Open(opts Options, more ...OpenOption) (*Hiera, error) {
	if ABIVersion() != HeaderABIVersion {
		return nil, internalError("libhiera ABI version %d, but hiera.h says %d", ABIVersion(), HeaderABIVersion)
	}
	body, err := Marshal(opts.wire())
	if err != nil {
		return nil, err
	}
	cs, err := cString(body)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cs))
	if len(more) > 0 {
		st, out, text := openWithHost(cs, more)
		if st != StatusOK {
			return nil, statusError(st, text)
		}
		return adopt(&Hiera{ptr: out}, func(h *Hiera) { h.Close() }), nil
	}
	var out *C.struct_hiera
	var errJSON *C.char
	st := Status(C.hiera_open(cs, &out, &errJSON))
	if st != StatusOK {
		return nil, statusError(st, takeString(errJSON))
	}
	return adopt(&Hiera{ptr: out}, func(h *Hiera) { h.Close() }), nil
}

// Close frees the configuration. Sessions made from it stay usable. It is
// idempotent, waits for calls in flight, and always returns nil.
func (h *Hiera) Close() error {
	release(&h.mu, &h.ptr, h, func(p *C.struct_hiera) { C.hiera_free(p) })
	runtime.KeepAlive(h)
	return nil
}

// adopt registers a new handle: counted, and freed by owner's finalizer
// when owner was never closed.
func adopt[T any](owner *T, close func(*T)) *T {
	liveHandles.Add(1)
	runtime.SetFinalizer(owner, close)
	return owner
}

// release frees *ptr once (Close): it takes the handle's write lock, so it
// waits for the calls in flight, clears owner's finalizer and sets *ptr to
// nil, after which calls see a closed handle.
func release[T any](mu *sync.RWMutex, ptr **T, owner any, free func(*T)) {
	mu.Lock()
	defer mu.Unlock()
	if *ptr == nil {
		return
	}
	runtime.SetFinalizer(owner, nil)
	free(*ptr)
	*ptr = nil
	liveHandles.Add(-1)
}

// Session binds a scope to the configuration: the node's variables as
// Puppet sees them (top-scope variables, "facts", "trusted", ...; nil for
// none). Values are encoded by Marshal; use *OrderedMap values where key
// order matters.
func (h *Hiera) Session(scope map[string]any) (*Session, error) {
	if scope == nil {
		return h.SessionJSON([]byte("{}"))
	}
	body, err := Marshal(scope)
	if err != nil {
		return nil, err
	}
	return h.SessionJSON(body)
}

// SessionJSON is Session with the scope given as wire JSON (a JSON object),
// e.g. the "scope" of an expected.json or what `facter --json` printed
// under "facts".
func (h *Hiera) SessionJSON(scope []byte) (*Session, error) {
	cs, err := cString(scope)
	if err != nil {
		return nil, err
	}
	defer C.free(unsafe.Pointer(cs))
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.ptr == nil {
		return nil, closedError("Hiera")
	}
	var out *C.struct_hiera_session
	var errJSON *C.char
	st := Status(C.hiera_session_new(h.ptr, cs, &out, &errJSON))
	runtime.KeepAlive(h)
	return sessionFrom(st, out, errJSON)
}

// Session is a scope bound to a configuration, with its caches: the first
// lookup that needs a file reads it and the session keeps it (a snapshot,
// like a catalog compile). Safe for concurrent use.
type Session struct {
	mu  sync.RWMutex
	ptr *C.struct_hiera_session
}

// Close frees the session. It is idempotent, waits for lookups in flight,
// and always returns nil; later lookups return an error of Kind KindClosed.
func (s *Session) Close() error {
	release(&s.mu, &s.ptr, s, func(p *C.struct_hiera_session) { C.hiera_session_free(p) })
	runtime.KeepAlive(s)
	return nil
}

// call runs hiera_lookup (many false) or hiera_lookup_many (many true) on
// wire JSON and returns the status and the text written.
func (s *Session) call(many bool, input any) (Status, string, error) {
	body, err := Marshal(input)
	if err != nil {
		return 0, "", err
	}
	cs, err := cString(body)
	if err != nil {
		return 0, "", err
	}
	defer C.free(unsafe.Pointer(cs))
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.ptr == nil {
		return 0, "", closedError("Session")
	}
	var out *C.char
	var st Status
	if many {
		st = Status(C.hiera_lookup_many(s.ptr, cs, &out))
	} else {
		st = Status(C.hiera_lookup(s.ptr, cs, &out))
	}
	runtime.KeepAlive(s)
	return st, takeString(out), nil
}

// callKey runs hiera_lookup_key: the key's bytes are passed as they are,
// with no request to marshal, copy or parse.
func (s *Session) callKey(key string) (Status, string, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.ptr == nil {
		return 0, "", closedError("Session")
	}
	// The string's bytes hold no Go pointers, and the call does not keep
	// them. (A string begins with a pointer to its bytes; go 1.19 has no
	// unsafe.StringData.)
	data := *(*unsafe.Pointer)(unsafe.Pointer(&key))
	var out *C.char
	st := Status(C.hiera_lookup_key(s.ptr, (*C.char)(data), C.size_t(len(key)), &out))
	runtime.KeepAlive(key)
	runtime.KeepAlive(s)
	return st, takeString(out), nil
}

// lookup runs one request and reads the answer; decode false leaves
// Result.Value nil (LookupRaw).
func (s *Session) lookup(key string, opts []LookupOption, decode bool) Result {
	cfg := configure(opts)
	var st Status
	var text string
	var err error
	if cfg.plain() && key != "" {
		st, text, err = s.callKey(key)
	} else {
		st, text, err = s.call(false, cfg.request(key))
	}
	if err != nil {
		return Result{Key: key, Err: err}
	}
	switch {
	case (st == StatusOK || st == StatusNotFound) && cfg.explain:
		var r response
		if err := json.Unmarshal([]byte(text), &r); err != nil {
			return Result{Key: key, Err: internalError("unreadable response %q", text)}
		}
		return r.result(key, cfg.ordered)
	case st == StatusNotFound:
		return Result{Key: key}
	case st == StatusOK:
		res := Result{Key: key, Found: true, Raw: json.RawMessage(text)}
		if decode {
			res.Value, res.Err = decodeResult(res.Raw, cfg.ordered)
		}
		return res
	}
	err = statusError(st, text)
	res := Result{Key: key, Err: err}
	if e, ok := err.(*Error); ok {
		res.Explain = e.Explain
	}
	return res
}

// Lookup looks up key. found is false when nothing was found and no default
// was given (value is then nil); err is a *Error when the lookup failed.
func (s *Session) Lookup(key string, opts ...LookupOption) (value any, found bool, err error) {
	r := s.lookup(key, opts, true)
	if r.Err != nil {
		return nil, false, r.Err
	}
	return r.Value, r.Found, nil
}

// LookupRaw is Lookup returning the value's wire JSON as the library wrote
// it: hash keys in Hiera's order, numbers as Ruby prints them, and
// {"__type__": ...} objects.
func (s *Session) LookupRaw(key string, opts ...LookupOption) (value json.RawMessage, found bool, err error) {
	r := s.lookup(key, opts, false)
	if r.Err != nil {
		return nil, false, r.Err
	}
	return r.Raw, r.Found, nil
}

// Explain looks up key and explains how, as `puppet lookup --explain`
// does. The text comes with lookup errors too.
func (s *Session) Explain(key string, opts ...LookupOption) (text string, value any, found bool, err error) {
	r := s.lookup(key, append(opts[:len(opts):len(opts)], WithExplain()), true)
	return r.Explain, r.Value, r.Found, r.Err
}

// LookupMany looks up many requests in one call (a catalog's worth of
// keys) and returns one Result per request, in order. A failed lookup is
// that Result's Err; the error returned is for the whole call (a closed
// session, a value that cannot be encoded).
func (s *Session) LookupMany(requests ...Request) ([]Result, error) {
	reqs := make([]any, len(requests))
	cfgs := make([]lookupConfig, len(requests))
	for i, r := range requests {
		cfgs[i] = configure(r.Options)
		reqs[i] = cfgs[i].request(r.Key)
	}
	st, text, err := s.call(true, reqs)
	if err != nil {
		return nil, err
	}
	if st != StatusOK {
		return nil, statusError(st, text)
	}
	var responses []response
	if err := json.Unmarshal([]byte(text), &responses); err != nil || len(responses) != len(requests) {
		return nil, internalError("unreadable hiera_lookup_many answer for %d requests: %.200s", len(requests), text)
	}
	results := make([]Result, len(requests))
	for i, r := range responses {
		results[i] = r.result(requests[i].Key, cfgs[i].ordered)
	}
	return results, nil
}
