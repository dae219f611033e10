package hiera

import (
	"encoding/json"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestVersion(t *testing.T) {
	if ABIVersion() != HeaderABIVersion {
		t.Fatalf("ABI %d, header %d", ABIVersion(), HeaderABIVersion)
	}
	if v := Version(); !strings.HasPrefix(v, "0.") {
		t.Fatalf("Version() = %q", v)
	}
}

// The README's example through Lookup, LookupRaw and LookupMany, checked
// against Puppet's answers.
func TestExampleAnswers(t *testing.T) {
	ex := openExample(t)
	for _, key := range ex.keys {
		raw, found, err := ex.s.LookupRaw(key)
		if err := ex.check(key, raw, found, err); err != nil {
			t.Error(err)
		}
		v, found2, err := ex.s.Lookup(key)
		if err != nil || found2 != found {
			t.Errorf("%s: Lookup found=%v err=%v", key, found2, err)
		}
		if found {
			// The plain decoding loses only the key order.
			var viaStd any
			if err := json.Unmarshal(raw, &viaStd); err != nil {
				t.Fatal(err)
			}
			again, _ := Marshal(v)
			var back any
			_ = json.Unmarshal(again, &back)
			if !reflect.DeepEqual(back, viaStd) {
				t.Errorf("%s: Lookup gave %#v", key, v)
			}
		} else if v != nil {
			t.Errorf("%s: not found but value %#v", key, v)
		}
	}
	reqs := make([]Request, len(ex.keys))
	for i, k := range ex.keys {
		reqs[i] = NewRequest(k)
	}
	results, err := ex.s.LookupMany(reqs...)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range results {
		if r.Key != ex.keys[i] {
			t.Fatalf("result %d for %q", i, r.Key)
		}
		if err := ex.check(r.Key, r.Raw, r.Found, r.Err); err != nil {
			t.Error(err)
		}
		if r.Found && r.Value == nil {
			t.Errorf("%s: no decoded value", r.Key)
		}
	}
}

// Hash key order survives LookupRaw and WithOrderedMaps (a deep merge lists
// the lowest priority's keys first).
func TestOrderedAccess(t *testing.T) {
	dir := fixture(t, map[string]string{
		"hiera.yaml":     "version: 5\nhierarchy:\n  - name: node\n    path: node.yaml\n  - name: common\n    path: common.yaml\n",
		"data/node.yaml": "h:\n  zeta: 1\n  alpha: {y: 1, b: 2}\n",
		"data/common.yaml": "h:\n  mike: 1\n  alpha: {x: 0}\n  bravo: 2\n" +
			"types:\n  int: 12345678901234567890123\n  neg: -5\n  float: 1.5\n  whole: 2.0\n  big: 1.0e+20\n" +
			"  nan: .nan\n  inf: -.inf\n  nil: ~\n  list: [1, a, true]\n" +
			"  ints: {1: one, 2: two}\n  bin: !!binary /w==\n  symkeys:\n    :a: 1\n" +
			"secret: s3cret\nlookup_options:\n  secret: {convert_to: Sensitive}\n",
	})
	h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s, err := h.Session(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	raw, found, err := s.LookupRaw("h", WithMerge(MergeDeep))
	if err != nil || !found {
		t.Fatal(found, err)
	}
	const want = `{"mike":1,"alpha":{"x":0,"y":1,"b":2},"bravo":2,"zeta":1}`
	if string(raw) != want {
		t.Fatalf("LookupRaw: %s, want %s", raw, want)
	}
	v, _, err := s.Lookup("h", WithMerge(Merge{Strategy: MergeDeep}), WithOrderedMaps())
	if err != nil {
		t.Fatal(err)
	}
	om := v.(*OrderedMap)
	if got := om.Keys(); !reflect.DeepEqual(got, []string{"mike", "alpha", "bravo", "zeta"}) {
		t.Fatalf("Keys() = %v", got)
	}
	alpha, _ := om.Get("alpha")
	if got := alpha.(*OrderedMap).Keys(); !reflect.DeepEqual(got, []string{"x", "y", "b"}) {
		t.Fatalf("alpha Keys() = %v", got)
	}
	if b, _ := json.Marshal(om); string(b) != want {
		t.Fatalf("json.Marshal(OrderedMap) = %s", b)
	}
	plain, _, _ := s.Lookup("h", WithMerge("deep"))
	if _, ok := plain.(map[string]any); !ok {
		t.Fatalf("plain Lookup gave %T", plain)
	}

	// Every kind of value decodes to its documented Go type.
	v, _, err = s.Lookup("types")
	if err != nil {
		t.Fatal(err)
	}
	m := v.(map[string]any)
	bigInt, _ := new(big.Int).SetString("12345678901234567890123", 10)
	checks := map[string]any{"neg": int64(-5), "float": 1.5, "whole": 2.0, "big": 1e20,
		"symkeys": map[string]any{"a": int64(1)}, "nil": nil, "list": []any{int64(1), "a", true},
		"ints": Entries{{int64(1), "one"}, {int64(2), "two"}}, "bin": []byte{0xff}}
	for k, w := range checks {
		if !reflect.DeepEqual(m[k], w) {
			t.Errorf("types.%s = %#v, want %#v", k, m[k], w)
		}
	}
	if m["int"].(interface{ String() string }).String() != bigInt.String() {
		t.Errorf("types.int = %v", m["int"])
	}
	if f := m["nan"].(float64); f == f {
		t.Errorf("types.nan = %v", f)
	}
	rawTypes, _, _ := s.LookupRaw("types")
	for _, frag := range []string{`"whole":2.0`, `"big":1.0e+20`, `"int":12345678901234567890123`,
		`{"__type__":"Float","value":"-Infinity"}`, `{"__type__":"Hash","entries":[[1,"one"],[2,"two"]]}`} {
		if !strings.Contains(string(rawTypes), frag) {
			t.Errorf("LookupRaw(types) = %s, lacks %s", rawTypes, frag)
		}
	}
	v, _, err = s.Lookup("secret")
	if sv, ok := v.(Sensitive); err != nil || !ok || sv.Value != "s3cret" {
		t.Fatalf("secret: %#v %v", v, err)
	}
}

// Go values go to the library and come back as they were (through a
// default, which Hiera returns as given).
func TestValuesRoundTrip(t *testing.T) {
	ex := openExample(t)
	bigInt, _ := new(big.Int).SetString("-98765432109876543210", 10)
	ordered := NewOrderedMap().Set("z", int64(1)).Set("a", []any{Symbol("s"), nil})
	for _, v := range []any{
		nil, true, "text", "", int64(-3), 0.5, 1.0, -0.0, 1e300, bigInt, Symbol("sym"), []byte{0, 0xff},
		Sensitive{Value: "x"}, Entries{{Key: int64(1), Value: "one"}, {Key: nil, Value: []any{}}},
		Rich{Type: "SemVer", Value: "1.2.3"}, []any{"a", int64(1)}, map[string]any{"k": 2.5},
		ordered, "\x00\n\"\\é",
	} {
		opts := []LookupOption{WithDefault(v)}
		if _, ok := v.(*OrderedMap); ok {
			opts = append(opts, WithOrderedMaps())
		}
		got, found, err := ex.s.Lookup("no::such::key", opts...)
		if err != nil || !found || !reflect.DeepEqual(got, v) {
			t.Errorf("%#v came back as %#v (%v %v)", v, got, found, err)
		}
	}
	// Go types without a wire form of their own.
	for _, c := range []struct {
		v    any
		want string
	}{
		{int8(-1), "-1"}, {uint64(1 << 63), "9223372036854775808"}, {float32(0.1), "0.1"}, {2.0, "2.0"},
		{[]string{"a"}, `["a"]`}, {map[int]string{2: "b", 1: "a"}, `{"__type__":"Hash","entries":[[1,"a"],[2,"b"]]}`},
		{struct {
			A int `json:"a"`
		}{1}, `{"a":1}`}, {json.RawMessage(`{"b": 1, "a": 2}`), `{"b":1,"a":2}`}, {json.Number("12"), "12"},
		{"\xff", `{"__type__":"Binary","value":"/w=="}`}, {&ordered, `{"z":1,"a":[{"__type__":"Symbol","value":"s"},null]}`},
	} {
		raw, _, err := ex.s.LookupRaw("no::such::key", WithDefault(c.v))
		if err != nil || string(raw) != c.want {
			t.Errorf("%#v: %s, want %s (%v)", c.v, raw, c.want, err)
		}
	}
}

// Every lookup option reaches the library.
func TestLookupOptions(t *testing.T) {
	ex := openExample(t)
	s := ex.s
	get := func(key string, opts ...LookupOption) string {
		t.Helper()
		raw, found, err := s.LookupRaw(key, opts...)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if !found {
			return "(not found)"
		}
		return string(raw)
	}
	cases := []struct {
		got, want string
	}{
		{get("no::such::key", WithDefault("dflt")), `"dflt"`},
		{get("no::such::key", WithDefault(nil)), `null`},
		{get("no::such::key", WithDefault(map[string]any{"b": 1.0, "a": []int{1}})), `{"a":[1],"b":1.0}`},
		{get("no::such::key", WithDefault("%{facts.role}")), `"%{facts.role}"`}, // not interpolated, as in Puppet
		{get("no::such::key", WithDefaultValuesHash(map[string]any{"no::such::key": 7})), `7`},
		{get("ntp::service_name", WithOverride(NewOrderedMap().Set("ntp::service_name", "chrony"))), `"chrony"`},
		{get("no::such::key", WithFallbackKeys("also::missing", "ntp::service_name")), `"ntpsec"`},
		{get("no::such::key", WithFallbackKeys("also::missing")), `(not found)`},
		{get("ntp::servers", WithMerge(MergeFirst)), `["ntp.web01.local"]`},
		{get("ntp::servers", WithMerge(Merge{Strategy: MergeUnique})), `["ntp.web01.local","0.pool.ntp.org","1.pool.ntp.org"]`},
	}
	for i, c := range cases {
		if c.got != c.want {
			t.Errorf("case %d: got %s, want %s", i, c.got, c.want)
		}
	}

	text, v, found, err := s.Explain("ntp::service_name")
	if err != nil || !found || v != "ntpsec" || !strings.Contains(text, `Searching for "ntp::service_name"`) {
		t.Fatalf("Explain: %q %v %v %v", text, v, found, err)
	}
	text, v, found, err = s.Explain("no::such::key")
	if err != nil || found || v != nil || !strings.Contains(text, "not found") {
		t.Fatalf("Explain(not found): %q %v %v %v", text, v, found, err)
	}
	// WithExplain on Lookup leaves the value as it is.
	if v, found, err := s.Lookup("ntp::service_name", WithExplain()); v != "ntpsec" || !found || err != nil {
		t.Fatalf("Lookup(WithExplain): %v %v %v", v, found, err)
	}
	results, err := s.LookupMany(NewRequest("ntp::service_name", WithExplain()), NewRequest("motd"))
	if err != nil || !strings.Contains(results[0].Explain, "ntpsec") || results[1].Explain != "" {
		t.Fatalf("LookupMany explain: %+v %v", results, err)
	}
}

func TestLookupManyEdges(t *testing.T) {
	ex := openExample(t)
	results, err := ex.s.LookupMany()
	if err != nil || len(results) != 0 {
		t.Fatalf("LookupMany(): %v %v", results, err)
	}
	// A request the library refuses is that request's error; the others
	// still answer.
	results, err = ex.s.LookupMany(NewRequest("x", WithOverride("not a hash")), NewRequest("ntp::service_name", WithOrderedMaps()),
		NewRequest("x", WithMerge("bogus")))
	if err != nil {
		t.Fatal(err)
	}
	var herr *Error
	if !errors.As(results[0].Err, &herr) || herr.Kind != KindInvalidArgument || herr.Status != StatusError {
		t.Errorf("bad request: %#v", results[0].Err)
	}
	if results[1].Value != "ntpsec" || results[1].Err != nil {
		t.Errorf("good request: %+v", results[1])
	}
	if !errors.As(results[2].Err, &herr) || !strings.Contains(herr.Message, "bogus") {
		t.Errorf("bad merge: %#v", results[2].Err)
	}
	// A value Marshal cannot encode fails the whole call, before C.
	if _, err := ex.s.LookupMany(NewRequest("x", WithDefault(make(chan int)))); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("unencodable default: %v", err)
	}
}

// Errors are *Error with the library's kind, message, file and line, and
// errors.As / errors.Is work on them.
func TestErrors(t *testing.T) {
	dir := fixture(t, map[string]string{
		"hiera.yaml":              "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"data/common.yaml":        "ok: 1\nrec: \"%{lookup('rec')}\"\n",
		"bad/hiera.yaml":          "version: 5\nhierarchy:\n  - name: x\n    path: common.yaml\n    bogus: 1\n",
		"syntax/hiera.yaml":       "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
		"syntax/data/common.yaml": "a: 1\nb: [1\n",
	})
	open := func(sub string) *Session {
		h, err := Open(Options{HieraConfig: filepath.Join(dir, sub, "hiera.yaml")})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close() // the session keeps the configuration alive
		s, err := h.Session(map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	lookupErr := func(s *Session, key string, opts ...LookupOption) *Error {
		t.Helper()
		v, found, err := s.Lookup(key, opts...)
		var herr *Error
		if !errors.As(err, &herr) {
			t.Fatalf("%s: want a *hiera.Error, got %v %v %v", key, v, found, err)
		}
		if v != nil || found {
			t.Fatalf("%s: an error with a value", key)
		}
		return herr
	}

	s := open("")
	e := lookupErr(s, "rec")
	if e.Kind != KindRecursion || e.Status != StatusError || !strings.Contains(e.Message, "Recursive lookup detected") {
		t.Errorf("recursion: %#v", e)
	}
	if !errors.Is(e, &Error{Kind: KindRecursion}) || errors.Is(e, ErrClosed) {
		t.Errorf("errors.Is on %#v", e)
	}
	if !strings.HasPrefix(e.Error(), "hiera: recursion error: ") {
		t.Errorf("Error() = %q", e.Error())
	}
	e = lookupErr(s, "ok", WithMerge("bogus"))
	if e.Kind != KindInvalidArgument || !strings.Contains(e.Message, "Unknown merge strategy: 'bogus'") {
		t.Errorf("bad merge: %#v", e)
	}
	e = lookupErr(s, "ok", WithDefaultValuesHash([]int{1}))
	if e.Status != StatusInvalidArgument || !errors.Is(e, ErrInvalidArgument) {
		t.Errorf("bad default_values_hash: %#v", e)
	}
	text, _, _, err := s.Explain("rec")
	if !errors.As(err, &e) || e.Explain != text || !strings.Contains(text, "Recursive") {
		t.Errorf("Explain of an error: %q %#v", text, err)
	}

	e = lookupErr(open("bad"), "anything")
	if e.Kind != KindType || e.File != filepath.Join(dir, "bad", "hiera.yaml") || !strings.Contains(e.Message, "unrecognized key 'bogus'") {
		t.Errorf("bad hiera.yaml: %#v", e)
	}
	e = lookupErr(open("syntax"), "a")
	if e.Kind != KindParse || e.File != filepath.Join(dir, "syntax", "data", "common.yaml") || e.Line == 0 {
		t.Errorf("YAML syntax error: %#v", e)
	}
	if !strings.Contains(e.Error(), "common.yaml") {
		t.Errorf("Error() = %q", e.Error())
	}

	_, err = Open(Options{Strict: "bogus"})
	if !errors.As(err, &e) || e.Kind != KindInvalidArgument || e.Status != StatusInvalidArgument || !strings.Contains(e.Message, "strict") {
		t.Errorf("Open with a bad option: %#v", err)
	}
	_, err = Open(Options{Puppet: 6})
	if !errors.As(err, &e) || e.Kind != KindInvalidArgument || e.Message != "options_json: 'puppet' must be 7 or 8" {
		t.Errorf("Open with Puppet 6: %#v", err)
	}
	h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := h.SessionJSON([]byte(`[1]`)); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("SessionJSON([1]): %v", err)
	}
	if _, err := h.SessionJSON([]byte("{\"a\":\"\x00\"}")); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("SessionJSON with NUL: %v", err)
	}
	if _, err := h.Session(map[string]any{"f": func() {}}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("Session with a func: %v", err)
	}
}

// The statuses that carry no error object map to their own kinds.
func TestStatusErrors(t *testing.T) {
	for _, c := range []struct {
		st   Status
		text string
		want *Error
	}{
		{StatusNullArgument, "", ErrNullArgument},
		{StatusPanic, "", ErrPanic},
		{StatusError, "not json", ErrInternal},
		{Status(42), "", ErrInternal},
		{StatusError, `{"kind":"io","message":"m","file":"f","line":3}`, &Error{Kind: KindIO}},
	} {
		err := statusError(c.st, c.text)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, c.want) || e.Status != c.st {
			t.Errorf("statusError(%v, %q) = %#v", c.st, c.text, err)
		}
	}
	e := statusError(StatusError, `{"kind":"io","message":"m","file":"f","line":3}`).(*Error)
	if e.File != "f" || e.Line != 3 || e.Error() != "hiera: io error: m (file: f, line: 3)" {
		t.Errorf("%#v %q", e, e.Error())
	}
}

// HIERA_PANIC comes back as ErrPanic and the session stays usable. Needs a
// libhiera built with the test-panic feature (scripts/test-all links one
// and sets HIERA_TEST_PANIC=1).
func TestPanicStatus(t *testing.T) {
	if os.Getenv("HIERA_TEST_PANIC") != "1" {
		t.Skip("needs a test-panic libhiera (HIERA_TEST_PANIC=1)")
	}
	ex := openExample(t)
	_, _, err := ex.s.Lookup("__hiera_test_panic__")
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrPanic) || e.Status != StatusPanic {
		t.Fatalf("panic lookup: %#v", err)
	}
	results, err := ex.s.LookupMany(NewRequest("__hiera_test_panic__"))
	if !errors.Is(err, ErrPanic) || results != nil {
		t.Fatalf("panic LookupMany: %v %v", results, err)
	}
	raw, found, err := ex.s.LookupRaw("ntp::service_name")
	if err := ex.check("ntp::service_name", raw, found, err); err != nil {
		t.Fatal(err)
	}
}

func TestCloseTwiceAndUseAfterClose(t *testing.T) {
	ex := openExample(t)
	h, s := ex.h, ex.s

	// Closing the configuration leaves its sessions working.
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); err != nil {
		t.Fatal(err)
	}
	raw, found, err := s.LookupRaw("ntp::service_name")
	if err := ex.check("ntp::service_name", raw, found, err); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Session(nil); !errors.Is(err, ErrClosed) {
		t.Fatalf("Session after Close: %v", err)
	}
	if _, err := h.SessionJSON([]byte("{}")); !errors.Is(err, ErrClosed) {
		t.Fatalf("SessionJSON after Close: %v", err)
	}

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	checkClosed := func(what string, err error) {
		t.Helper()
		var e *Error
		if !errors.As(err, &e) || e.Kind != KindClosed || !errors.Is(err, ErrClosed) || e.Status != StatusOK {
			t.Errorf("%s after Close: %#v", what, err)
		}
	}
	v, found, err := s.Lookup("ntp::service_name")
	if v != nil || found {
		t.Errorf("Lookup after Close answered %v %v", v, found)
	}
	checkClosed("Lookup", err)
	raw, found, err = s.LookupRaw("ntp::service_name")
	if raw != nil || found {
		t.Errorf("LookupRaw after Close answered")
	}
	checkClosed("LookupRaw", err)
	results, err := s.LookupMany(NewRequest("motd"))
	if results != nil {
		t.Errorf("LookupMany after Close answered")
	}
	checkClosed("LookupMany", err)
	_, _, _, err = s.Explain("motd")
	checkClosed("Explain", err)

	// The zero values are closed handles, not crashes.
	checkClosed("zero Session", func() error { _, _, err := new(Session).Lookup("k"); return err }())
	checkClosed("zero Hiera", func() error { _, err := new(Hiera).Session(nil); return err }())
	if new(Session).Close() != nil || new(Hiera).Close() != nil {
		t.Error("Close of a zero value")
	}
}

// Handles that are never closed are freed by their finalizers.
func TestFinalizers(t *testing.T) {
	runtime.GC()
	before := liveHandles.Load()
	func() {
		for i := 0; i < 20; i++ {
			h, err := Open(Options{HieraConfig: filepath.Join(examplesDir, "hiera.yaml")})
			if err != nil {
				t.Fatal(err)
			}
			s, err := h.Session(nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := s.Lookup("motd"); err != nil {
				t.Fatal(err)
			}
		}
	}()
	if liveHandles.Load() < before+40 {
		t.Fatalf("live handles %d, before %d", liveHandles.Load(), before)
	}
	deadline := time.Now().Add(10 * time.Second)
	for liveHandles.Load() > before && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if n := liveHandles.Load(); n > before {
		t.Fatalf("%d handles not freed by finalizers", n-before)
	}
}

// A lookup of a key alone goes through hiera_lookup_key; it answers what the
// request object answers, and a key that is not UTF-8 is an invalid argument.
func TestLookupKeyAlone(t *testing.T) {
	ex := openExample(t)
	for _, key := range append([]string{"", "no::such::key", "a\x00b"}, ex.keys...) {
		raw, found, err := ex.s.LookupRaw(key)
		results, err2 := ex.s.LookupMany(NewRequest(key))
		if err2 != nil || len(results) != 1 {
			t.Fatalf("%q: LookupMany %v %v", key, results, err2)
		}
		r := results[0]
		if (err == nil) != (r.Err == nil) || found != r.Found || string(raw) != string(r.Raw) {
			t.Errorf("%q: key alone %s %v %v, request %s %v %v", key, raw, found, err, r.Raw, r.Found, r.Err)
		}
	}
	_, _, err := ex.s.Lookup("motd\xff")
	var e *Error
	if !errors.As(err, &e) || e.Kind != KindInvalidArgument || !strings.Contains(e.Message, "not valid UTF-8") {
		t.Errorf("a key that is not UTF-8: %#v", err)
	}
}
