package hiera_test

import (
	"errors"
	"fmt"

	"libhiera.dev/hiera"
)

func Example() {
	h, err := hiera.Open(hiera.Options{
		HieraConfig:     "../../examples/hiera.yaml",
		EnvironmentPath: "../../examples/environments",
	})
	if err != nil {
		panic(err)
	}
	defer h.Close()
	s, err := h.Session(map[string]any{
		"facts":   map[string]any{"role": "web", "os": map[string]any{"family": "Debian"}},
		"trusted": map[string]any{"certname": "web01.example.com"},
	})
	if err != nil {
		panic(err)
	}
	defer s.Close()

	v, found, err := s.Lookup("ntp::service_name")
	fmt.Println(v, found, err)

	raw, _, _ := s.LookupRaw("profile::web::settings") // Hiera's key order
	fmt.Println(string(raw))

	v, found, _ = s.Lookup("no::such::key")
	fmt.Println(v, found)

	v, _, _ = s.Lookup("no::such::key", hiera.WithDefault("fallback"))
	fmt.Println(v)

	_, _, err = s.Lookup("motd", hiera.WithMerge("bogus"))
	var herr *hiera.Error
	if errors.As(err, &herr) {
		fmt.Println(herr.Kind, herr.Message)
	}
	// Output:
	// ntpsec true <nil>
	// {"workers":4,"listen":[80,443]}
	// <nil> false
	// fallback
	// invalid_argument Unknown merge strategy: 'bogus'
}

func ExampleOrderedMap() {
	v, _ := hiera.UnmarshalOrdered([]byte(`{"zeta": 1, "alpha": {"__type__": "Symbol", "value": "a"}}`))
	m := v.(*hiera.OrderedMap)
	for _, k := range m.Keys() {
		x, _ := m.Get(k)
		fmt.Printf("%s=%#v\n", k, x)
	}
	b, _ := hiera.Marshal(m)
	fmt.Println(string(b))
	// Output:
	// zeta=1
	// alpha="a"
	// {"zeta":1,"alpha":{"__type__":"Symbol","value":"a"}}
}
