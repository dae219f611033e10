package hiera

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestLookupAllEqualsPuppet: every key of the every-key case (its queries
// are every key of its data files, recorded from Puppet) answered by
// LookupAll as Puppet answered it, sorted, not-found keys left out.
func TestLookupAllEqualsPuppet(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "tests", "conformance", "all_keys", "every_key"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml"), EnvironmentPath: filepath.Join(dir, "environments")})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	rec := readRecorded(t, dir)
	s, err := h.SessionJSON(rec.Scope)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	results, err := s.LookupAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Result{}
	for i, r := range results {
		if i > 0 && results[i-1].Key >= r.Key {
			t.Errorf("not sorted: %q before %q", results[i-1].Key, r.Key)
		}
		got[r.Key] = r
	}
	want := 0
	for _, q := range rec.Results {
		var key string
		if err := json.Unmarshal(q["key"], &key); err != nil {
			t.Fatal(err)
		}
		key = strings.Trim(key, `"`)
		r, ok := got[key]
		switch {
		case q["value"] != nil:
			want++
			if !ok || !r.Found || mustCanon(t, r.Raw) != mustCanon(t, q["value"]) {
				t.Errorf("%s: got %+v, Puppet %s", key, r, q["value"])
			}
		case q["error"] != nil:
			want++
			if !ok || r.Err == nil {
				t.Errorf("%s: no error, Puppet failed", key)
			}
		default:
			if ok {
				t.Errorf("%s: not found by Puppet, LookupAll gave %+v", key, r)
			}
		}
	}
	if len(results) != want {
		t.Errorf("%d results, want %d", len(results), want)
	}
	s.Close()
	if _, err := s.LookupAll(); err == nil {
		t.Error("LookupAll on a closed session did not fail")
	}
}
