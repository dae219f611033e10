package hiera

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The modulepath options: BaseModulePath (after the environment's modules)
// and ModulePath (the whole list), on a recorded case with two base
// directories that both hold a module gamma.
func TestModulePathOptions(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join(conformanceDir, "modulepath", "two_base_directories"))
	if err != nil {
		t.Fatal(err)
	}
	lookup := func(opts Options, key string) (any, bool) {
		t.Helper()
		opts.HieraConfig = filepath.Join(dir, "hiera.yaml")
		opts.EnvironmentPath = filepath.Join(dir, "environments")
		h, err := Open(opts)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		s, err := h.Session(map[string]any{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		v, found, err := s.Lookup(key)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		return v, found
	}
	base1, base2 := filepath.Join(dir, "base1"), filepath.Join(dir, "base2")
	if _, found := lookup(Options{}, "alpha::where"); found {
		t.Error("no base directories by default, but alpha was found")
	}
	for _, c := range []struct {
		opts      Options
		key, want string
	}{
		{Options{BaseModulePath: []string{base1, base2}}, "beta::where", "base2"},
		{Options{BaseModulePath: []string{base1, base2}}, "gamma::where", "base1"},
		{Options{BaseModulePath: []string{base2, base1}}, "gamma::where", "base2"},
		{Options{ModulePath: []string{base2}, BaseModulePath: []string{base1}}, "gamma::where", "base2"},
	} {
		if v, found := lookup(c.opts, c.key); !found || v != c.want {
			t.Errorf("%+v %s: got %v %v, want %q", c.opts, c.key, v, found, c.want)
		}
	}
	// ModulePath is the whole list: base directories are not added, and an
	// empty non-nil list has no modules at all.
	if _, found := lookup(Options{ModulePath: []string{base2}, BaseModulePath: []string{base1}}, "alpha::where"); found {
		t.Error("ModulePath [base2]: alpha (in base1) was found")
	}
	if _, found := lookup(Options{ModulePath: []string{}, BaseModulePath: []string{base1}}, "alpha::where"); found {
		t.Error("ModulePath []: alpha was found")
	}
}

// An environment.conf that Puppet cannot read fails Open.
func TestModulePathEnvironmentConfError(t *testing.T) {
	dir := t.TempDir()
	env := filepath.Join(dir, "environments", "production")
	if err := os.MkdirAll(env, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(env, "environment.conf"), []byte("modulepath = $codedir/modules\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(Options{HieraConfig: filepath.Join(dir, "hiera.yaml"), EnvironmentPath: filepath.Join(dir, "environments")})
	var herr *Error
	if !errors.As(err, &herr) || herr.Kind != KindConfig || !strings.Contains(herr.Message, "$codedir") {
		t.Fatalf("want a config error naming $codedir, got %v", err)
	}
}
