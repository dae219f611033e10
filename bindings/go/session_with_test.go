package hiera

import (
	"errors"
	"path/filepath"
	"testing"
)

// sessionRepo: a hierarchy and a plan_hierarchy, data that interpolates a
// class variable, and a key whose interpolation fails.
func sessionRepo(t *testing.T) *Hiera {
	dir := fixture(t, map[string]string{
		"hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n" +
			"plan_hierarchy:\n  - name: plans\n    path: plans.yaml\n",
		"data/common.yaml": "where: catalog\nmotd: \"%{greeting} from %{trusted.certname}\"\n" +
			"bad: \"%{lookup('bad')}\"\nafter: never\n",
		"data/plans.yaml": "where: plan\n",
	})
	h, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml"), EnvironmentPath: filepath.Join(dir, "environments")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

func TestSessionWithPlan(t *testing.T) {
	h := sessionRepo(t)
	for _, c := range []struct {
		plan bool
		want string
	}{{false, "catalog"}, {true, "plan"}} {
		s, err := h.SessionWith(nil, SessionOptions{Plan: c.plan})
		if err != nil {
			t.Fatal(err)
		}
		v, found, err := s.Lookup("where")
		s.Close()
		if err != nil || !found || v != c.want {
			t.Fatalf("plan %v: where = %v, %v, %v; want %q", c.plan, v, found, err, c.want)
		}
	}
	h.Close()
	if _, err := h.SessionWith(nil, SessionOptions{}); !errors.Is(err, &Error{Kind: KindClosed}) {
		t.Fatalf("a session of a closed Hiera: %v", err)
	}
}

func TestOverlay(t *testing.T) {
	h := sessionRepo(t)
	top, err := h.Session(map[string]any{"trusted": map[string]any{"certname": "node1"}, "greeting": "hello"})
	if err != nil {
		t.Fatal(err)
	}
	class, err := top.Overlay(map[string]any{"greeting": "hi"}, OverlayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer class.Close()
	// The overlay outlives its parent.
	if v, _, err := top.Lookup("motd"); err != nil || v != "hello from node1" {
		t.Fatalf("top scope motd = %v, %v", v, err)
	}
	top.Close()
	if v, _, err := class.Lookup("motd"); err != nil || v != "hi from node1" {
		t.Fatalf("overlay motd = %v, %v", v, err)
	}
	if _, err := top.Overlay(nil, OverlayOptions{}); !errors.Is(err, &Error{Kind: KindClosed}) {
		t.Fatalf("overlay of a closed session: %v", err)
	}
}

func TestLookupKeys(t *testing.T) {
	h := sessionRepo(t)
	s, err := h.Session(map[string]any{"greeting": "hey"})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := s.LookupKeys([]string{"where", "missing", "bad", "after"}, KeysOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rs) != 3 {
		t.Fatalf("%d results, want 3 (up to the failing key): %+v", len(rs), rs)
	}
	if rs[0].Key != "where" || !rs[0].Found || rs[0].Value != "catalog" {
		t.Fatalf("first: %+v", rs[0])
	}
	if rs[1].Key != "missing" || rs[1].Found || rs[1].Err != nil {
		t.Fatalf("second: %+v", rs[1])
	}
	var herr *Error
	if rs[2].Key != "bad" || !errors.As(rs[2].Err, &herr) {
		t.Fatalf("third: %+v", rs[2])
	}
	if rs, err := s.LookupKeys(nil, KeysOptions{}); err != nil || len(rs) != 0 {
		t.Fatalf("no keys: %v, %v", rs, err)
	}
	s.Close()
	if _, err := s.LookupKeys([]string{"where"}, KeysOptions{}); !errors.Is(err, &Error{Kind: KindClosed}) {
		t.Fatalf("keys of a closed session: %v", err)
	}
}
