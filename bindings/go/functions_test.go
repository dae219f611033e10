package hiera

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// A control repo whose hierarchy names three Go functions, written as
// hiera-vault (lookup_key), hiera-http (data_hash over a URI) and the
// data_dig guide's example write theirs, and one it does not register.
var functionRepo = map[string]string{
	"hiera.yaml": `version: 5
hierarchy:
  - name: vault
    lookup_key: vault_lookup
    options:
      mounts: [secret, "%{facts.team}"]
  - name: http
    data_hash: http_data
    uris:
      - "http://config.example/%{facts.team}.json"
      - "http://config.example/common.json"
  - name: dig
    data_dig: dig_data
  - name: yaml
    path: common.yaml
`,
	"data/common.yaml": "plain: from yaml\nlist: [yaml]\nwarned: \"%{nosuch}\"\n",
	"missing.yaml":     "version: 5\nhierarchy:\n  - name: nope\n    lookup_key: nosuch\n",
}

// The fixture the "http" function serves, as a server would.
var httpFixture = map[string]map[string]any{
	"http://config.example/web.json":    {"http_key": "web %{facts.team}", "list": []any{"web"}},
	"http://config.example/common.json": {"http_key": "common", "common_only": int64(7)},
}

// The vault's secrets, by mount and key.
var vaultFixture = map[string]map[string]any{
	"secret": {"db_password": "s3cret", "templated": "pw for %{facts.team}"},
	"web":    {"web_token": "t0ken"},
}

type functionCalls struct {
	vault, vaultBackend, http, dig atomic.Int64
}

func functionOptions(calls *functionCalls, warnings chan<- Warning) []OpenOption {
	vault := func(ctx *Context) (any, error) {
		calls.vault.Add(1)
		if ctx.Kind != FunctionLookupKey || ctx.Function != "vault_lookup" || ctx.Layer != "global" || ctx.Entry != "vault" || ctx.Index != 0 {
			return nil, fmt.Errorf("unexpected call %+v", ctx)
		}
		switch ctx.Key {
		case "failing":
			return nil, errors.New("the vault is sealed")
		case "panicking":
			panic("vault client crashed")
		case "nested":
			return nil, fmt.Errorf("unused")
		}
		mounts, _ := ctx.Options["mounts"].([]any)
		if !reflect.DeepEqual(mounts, []any{"secret", "web"}) {
			return nil, fmt.Errorf("options not interpolated: %v", ctx.Options)
		}
		// Puppet's context.cache: one backend read per key for the Hiera.
		if v, ok := ctx.CachedValue(ctx.Key); ok {
			if v == nil {
				return ctx.NotFound()
			}
			return v, nil
		}
		calls.vaultBackend.Add(1)
		ctx.Explain("vault: read " + ctx.Key)
		for _, m := range mounts {
			if v, ok := vaultFixture[m.(string)][ctx.Key]; ok {
				// hiera-vault interpolates what it read
				iv, err := ctx.Interpolate(v)
				if err != nil {
					return nil, err
				}
				return ctx.Cache(ctx.Key, iv), nil
			}
		}
		ctx.Cache(ctx.Key, nil)
		return ctx.NotFound()
	}
	http := func(ctx *Context) (any, error) {
		calls.http.Add(1)
		if ctx.Kind != FunctionDataHash || ctx.Key != "" {
			return nil, fmt.Errorf("unexpected call %+v", ctx)
		}
		data, ok := httpFixture[ctx.Location]
		if !ok {
			return ctx.NotFound() // hiera-http's "404: not found"
		}
		return data, nil
	}
	dig := func(ctx *Context) (any, error) {
		calls.dig.Add(1)
		// The data_dig guide's example: a nested source dug by segments.
		tree := map[string]any{"app": map[string]any{"ports": []any{int64(80), int64(443)}, "name": "shop"}}
		var cur any = tree
		for _, seg := range ctx.Segments {
			switch s := seg.(type) {
			case string:
				m, ok := cur.(map[string]any)
				if !ok {
					return ctx.NotFound()
				}
				if cur, ok = m[s]; !ok {
					return ctx.NotFound()
				}
			case int64:
				l, ok := cur.([]any)
				if !ok || s < 0 || int(s) >= len(l) {
					return ctx.NotFound()
				}
				cur = l[s]
			default:
				return nil, fmt.Errorf("segment %T", seg)
			}
		}
		return cur, nil
	}
	opts := []OpenOption{
		WithFunction("vault_lookup", FunctionLookupKey, vault),
		WithFunction("http_data", FunctionDataHash, http),
		WithFunction("dig_data", FunctionDataDig, dig),
		// a function of the same name but another kind is not the one named
		WithFunction("vault_lookup", FunctionDataHash, func(*Context) (any, error) { return nil, errors.New("wrong kind") }),
	}
	if warnings != nil {
		opts = append(opts, WithWarnings(func(w Warning) { warnings <- w }))
	}
	return opts
}

func TestGoFunctions(t *testing.T) {
	dir := fixture(t, functionRepo)
	calls := &functionCalls{}
	warnings := make(chan Warning, 16)
	h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml")}, functionOptions(calls, warnings)...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s, err := h.Session(map[string]any{"facts": map[string]any{"team": "web"}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()

	for _, c := range []struct {
		key   string
		opts  []LookupOption
		want  any
		found bool
	}{
		{"db_password", nil, "s3cret", true},
		{"web_token", nil, "t0ken", true},
		{"templated", nil, "pw for web", true}, // ctx.Interpolate
		{"http_key", nil, "web web", true},     // a data_hash value is interpolated by libhiera
		{"common_only", nil, int64(7), true},   // the second URI
		{"app.ports.1", nil, int64(443), true}, // data_dig, with an index segment
		{"app", nil, map[string]any{"ports": []any{int64(80), int64(443)}, "name": "shop"}, true},
		{"plain", nil, "from yaml", true}, // ErrNotFound everywhere above
		{"list", []LookupOption{WithMerge(MergeUnique)}, []any{"web", "yaml"}, true},
		{"nothing", nil, nil, false},
	} {
		v, found, err := s.Lookup(c.key, c.opts...)
		if err != nil || found != c.found || !reflect.DeepEqual(v, c.want) {
			t.Errorf("%s: got %#v %v %v, want %#v", c.key, v, found, err, c.want)
		}
	}

	// Errors and panics of a function fail the lookup with their message.
	if _, _, err := s.Lookup("failing"); err == nil || !strings.Contains(err.Error(), "the vault is sealed") {
		t.Errorf("failing: %v", err)
	}
	var herr *Error
	if _, _, err := s.Lookup("panicking"); !errors.As(err, &herr) || herr.Kind != KindLookup ||
		!strings.Contains(herr.Message, "the Go function 'vault_lookup' panicked: vault client crashed") {
		t.Errorf("panicking: %v", err)
	}
	// The handles stay usable after a panic.
	if v, _, err := s.Lookup("db_password"); err != nil || v != "s3cret" {
		t.Errorf("after a panic: %v %v", v, err)
	}

	// ctx.Explain shows in the explanation; the cache answers the second
	// time (one backend read per key).
	backend := calls.vaultBackend.Load()
	text, v, found, err := s.Explain("db_password")
	if err != nil || !found || v != "s3cret" {
		t.Errorf("explain: %v %v %v", v, found, err)
	}
	if calls.vaultBackend.Load() != backend {
		t.Errorf("the cached value was read again")
	}
	s2, err := h.Session(map[string]any{"facts": map[string]any{"team": "web"}})
	if err != nil {
		t.Fatal(err)
	}
	text, _, _, _ = s2.Explain("web_token")
	s2.Close()
	if !strings.Contains(text, "Hierarchy entry \"vault\"") {
		t.Errorf("explanation: %s", text)
	}
	if calls.vaultBackend.Load() != backend {
		t.Errorf("the cache is the Hiera's: another session read the vault again")
	}
	fresh := "absent_" + t.Name()
	text, _, found, _ = s.Explain(fresh)
	if found || !strings.Contains(text, "vault: read "+fresh) {
		t.Errorf("ctx.Explain is not in the explanation:\n%s", text)
	}
	// As Puppet prints it: in the entry's node (it has no location), after
	// its outcome.
	lines := strings.Split(text, "\n")
	checked := 0
	for i, l := range lines {
		inFresh := strings.Contains(strings.Join(lines[:i], "\n"), "Searching for \""+fresh)
		if strings.TrimSpace(l) == `Hierarchy entry "vault"` && i+2 < len(lines) && inFresh {
			checked++
			indent := len(l) - len(strings.TrimLeft(l, " ")) + 2
			want := []string{strings.Repeat(" ", indent) + `No such key: "` + fresh + `"`, strings.Repeat(" ", indent) + "vault: read " + fresh}
			if got := lines[i+1 : i+3]; !reflect.DeepEqual(got, want) {
				t.Errorf("the entry's lines: %q, want %q\n%s", got, want, text)
			}
		}
	}
	if checked != 1 {
		t.Errorf("the vault entry of the lookup of %s was not found in:\n%s", fresh, text)
	}

	// data_hash is called once per location and session.
	httpCalls := calls.http.Load()
	if _, _, err := s.Lookup("http_key"); err != nil || calls.http.Load() != httpCalls {
		t.Errorf("data_hash called again for the same session: %d -> %d (%v)", httpCalls, calls.http.Load(), err)
	}

	// A warning Puppet would log reaches WithWarnings.
	if v, _, err := s.Lookup("warned"); err != nil || v != "" {
		t.Errorf("warned: %v %v", v, err)
	}
	select {
	case w := <-warnings:
		if w.Kind != "undefined_variables" || !strings.Contains(w.Message, "Undefined variable 'nosuch'") {
			t.Errorf("warning: %+v", w)
		}
	default:
		t.Errorf("no warning delivered")
	}
}

// A function may look up again (any session) from inside its call, and a
// hierarchy naming a function nobody registered fails as Puppet does.
func TestGoFunctionsNestedAndMissing(t *testing.T) {
	dir := fixture(t, functionRepo)
	var inner *Session
	nested := WithFunction("vault_lookup", FunctionLookupKey, func(ctx *Context) (any, error) {
		if ctx.Key != "outer" {
			return ctx.NotFound()
		}
		v, _, err := inner.Lookup("plain")
		return "outer+" + fmt.Sprint(v), err
	})
	notFound := func(ctx *Context) (any, error) { return ctx.NotFound() }
	h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml")}, nested,
		WithFunction("http_data", FunctionDataHash, notFound), WithFunction("dig_data", FunctionDataDig, notFound))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if inner, err = h.Session(nil); err != nil {
		t.Fatal(err)
	}
	defer inner.Close()
	s, err := h.Session(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, _, err := s.Lookup("outer"); err != nil || v != "outer+from yaml" {
		t.Errorf("nested: %v %v", v, err)
	}

	// No Go function of that name: Puppet's error.
	h2, err := Open(Options{HieraConfig: filepath.Join(dir, "missing.yaml")}, WithWarnings(func(Warning) {}))
	if err != nil {
		t.Fatal(err)
	}
	defer h2.Close()
	s2, err := h2.Session(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	if _, _, err := s2.Lookup("x"); err == nil || !strings.Contains(err.Error(), "Unable to find 'lookup_key' function named 'nosuch'") {
		t.Errorf("missing: %v", err)
	}
}

// Interpolate and Explain after the call has returned are refused, not a
// use of a dead answer.
func TestGoFunctionContextAfterReturn(t *testing.T) {
	dir := fixture(t, functionRepo)
	var kept *Context
	h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml")},
		WithFunction("vault_lookup", FunctionLookupKey, func(ctx *Context) (any, error) {
			kept = ctx
			return ctx.NotFound()
		}),
		WithFunction("http_data", FunctionDataHash, func(ctx *Context) (any, error) { return ctx.NotFound() }),
		WithFunction("dig_data", FunctionDataDig, func(ctx *Context) (any, error) {
			// An interpolation error, as Puppet's interpolate raises it.
			_, err := ctx.Interpolate("%{bad('x')}")
			return nil, err
		}))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	s, err := h.Session(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var herr *Error
	if _, _, err := s.Lookup("k"); !errors.As(err, &herr) || !strings.Contains(herr.Message, "bad") {
		t.Errorf("interpolation error: %v", err)
	}
	if kept == nil {
		t.Fatal("the function was not called")
	}
	if _, err := kept.Interpolate("x"); err == nil || !strings.Contains(err.Error(), "after the function returned") {
		t.Errorf("Interpolate after return: %v", err)
	}
	kept.Explain("ignored") // no effect, no crash
}

// Many goroutines looking up through Go functions at once (run with -race),
// and the host is released when the Hiera and its sessions are gone.
func TestGoFunctionsConcurrentAndReleased(t *testing.T) {
	dir := fixture(t, functionRepo)
	before := liveHosts.Load()
	calls := &functionCalls{}
	h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml")}, functionOptions(calls, nil)...)
	if err != nil {
		t.Fatal(err)
	}
	if liveHosts.Load() != before+1 {
		t.Fatalf("live hosts %d, before %d", liveHosts.Load(), before)
	}
	s, err := h.Session(map[string]any{"facts": map[string]any{"team": "web"}})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var wrong atomic.Int64
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			own, err := h.Session(map[string]any{"facts": map[string]any{"team": "web"}})
			if err != nil {
				wrong.Add(1)
				return
			}
			defer own.Close()
			for i := 0; i < 50; i++ {
				sess := s
				if i%2 == 1 {
					sess = own
				}
				for key, want := range map[string]any{"templated": "pw for web", "http_key": "web web", "app.name": "shop"} {
					if v, _, err := sess.Lookup(key); err != nil || v != want {
						wrong.Add(1)
					}
				}
				if _, _, err := sess.Lookup("panicking"); err == nil {
					wrong.Add(1)
				}
			}
		}(g)
	}
	wg.Wait()
	if n := wrong.Load(); n != 0 {
		t.Errorf("%d wrong answers", n)
	}
	h.Close()
	if liveHosts.Load() != before+1 {
		t.Errorf("the host was released while a session lives")
	}
	s.Close()
	deadline := time.Now().Add(5 * time.Second)
	for liveHosts.Load() != before && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if liveHosts.Load() != before {
		t.Errorf("the host was not released: %d live, before %d", liveHosts.Load(), before)
	}
}

// A configuration that cannot be opened releases its host at once.
func TestGoFunctionsFailedOpenReleases(t *testing.T) {
	before := liveHosts.Load()
	_, err := Open(Options{Environment: "../bad"}, WithFunction("f", FunctionLookupKey, func(*Context) (any, error) { return nil, nil }))
	if err == nil {
		t.Fatal("opened a bad environment name")
	}
	if liveHosts.Load() != before {
		t.Errorf("live hosts %d, before %d", liveHosts.Load(), before)
	}
}

// Options.HostFunctions: a function libhiera has itself (hocon_data) runs
// as the Go function of that name instead, for existing files only.
func TestHostFunctionsReplaceBuiltins(t *testing.T) {
	dir := fixture(t, map[string]string{
		"hiera.yaml": `version: 5
hierarchy:
  - name: missing
    data_hash: hocon_data
    path: missing.conf
  - name: hocon
    data_hash: hocon_data
    path: common.conf
`,
		"data/common.conf": "k: from hocon\n",
	})
	var calls atomic.Int64
	hocon := WithFunction("hocon_data", FunctionDataHash, func(ctx *Context) (any, error) {
		calls.Add(1)
		if !strings.HasSuffix(ctx.Location, "common.conf") {
			return nil, fmt.Errorf("called for %q", ctx.Location)
		}
		return map[string]any{"k": "from go"}, nil
	})
	for _, c := range []struct {
		names []string
		want  any
		calls int64
	}{
		{nil, "from hocon", 0},
		{[]string{"hocon_data"}, "from go", 1},
	} {
		calls.Store(0)
		h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml"), HostFunctions: c.names}, hocon)
		if err != nil {
			t.Fatal(err)
		}
		s, err := h.Session(nil)
		if err != nil {
			t.Fatal(err)
		}
		v, found, err := s.Lookup("k")
		if err != nil || !found || v != c.want || calls.Load() != c.calls {
			t.Errorf("HostFunctions %v: got %#v %v %v, %d calls; want %#v, %d calls", c.names, v, found, err, calls.Load(), c.want, c.calls)
		}
		s.Close()
		h.Close()
	}
}
