// Command lookup looks up keys in the example control repo (examples/) for
// node web01.example.com through the hiera Go package, and prints each
// answer as JSON.
//
// usage: lookup [-dir EXAMPLES_DIR] [KEY...]
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"libhiera.dev/hiera"
)

func main() {
	dir := flag.String("dir", "examples", "the control repo (hiera.yaml, environments/)")
	flag.Parse()
	keys := flag.Args()
	if len(keys) == 0 {
		keys = []string{"motd", "ntp::servers", "ntp::service_name", "profile::base::users",
			"profile::base::packages", "profile::web::vhost", "profile::web::settings",
			"profile::web::settings.listen.1", "no::such::key"}
	}

	h, err := hiera.Open(hiera.Options{
		HieraConfig:     filepath.Join(*dir, "hiera.yaml"),
		EnvironmentPath: filepath.Join(*dir, "environments"),
		Environment:     "production",
	})
	if err != nil {
		fail(err)
	}
	defer h.Close()

	// The node's variables, as Puppet builds them from its facts and certname.
	facts := map[string]any{
		"role":       "web",
		"os":         map[string]any{"family": "Debian", "release": map[string]any{"major": "12"}},
		"networking": map[string]any{"fqdn": "web01.example.com", "domain": "example.com"},
	}
	scope := map[string]any{"facts": facts, "environment": "production",
		"trusted": map[string]any{"authenticated": "remote", "certname": "web01.example.com",
			"extensions": map[string]any{}, "hostname": "web01", "domain": "example.com",
			"external": map[string]any{}}}
	for k, v := range facts {
		scope[k] = v // facts are top-scope variables too
	}
	s, err := h.Session(scope) // one session per node
	if err != nil {
		fail(err)
	}
	defer s.Close()

	// One key at a time: LookupRaw gives the JSON with Hiera's key order.
	for _, key := range keys {
		raw, found, err := s.LookupRaw(key)
		switch {
		case err != nil:
			fail(err)
		case found:
			fmt.Printf("%s => %s\n", key, raw)
		default:
			fmt.Printf("%s => (not found)\n", key)
		}
	}

	// All of them in one call, decoded to Go values.
	requests := make([]hiera.Request, len(keys))
	for i, key := range keys {
		requests[i] = hiera.NewRequest(key)
	}
	results, err := s.LookupMany(requests...)
	if err != nil {
		fail(err)
	}
	found := 0
	for _, r := range results {
		if r.Err != nil {
			fail(r.Err)
		}
		if r.Found {
			found++
		}
	}
	fmt.Printf("lookup_many: %d of %d found\n", found, len(keys))
	if v, ok, _ := s.Lookup("ntp::servers"); ok {
		servers, _ := v.([]any) // Hiera Arrays are []any
		fmt.Printf("ntp::servers has %d entries\n", len(servers))
	}
}

func fail(err error) {
	var herr *hiera.Error
	if errors.As(err, &herr) {
		fmt.Fprintf(os.Stderr, "lookup: %s error: %s\n", herr.Kind, herr.Message)
	} else {
		fmt.Fprintln(os.Stderr, "lookup:", err)
	}
	os.Exit(2)
}
