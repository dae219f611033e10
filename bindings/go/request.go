package hiera

import (
	"encoding/json"
)

// MergeStrategy names one of Hiera's merge strategies.
type MergeStrategy string

// The merge strategies of `lookup(..., merge => ...)`.
const (
	MergeFirst  MergeStrategy = "first"
	MergeUnique MergeStrategy = "unique"
	MergeHash   MergeStrategy = "hash"
	MergeDeep   MergeStrategy = "deep"
)

// Merge is a merge with options, the hash form of Puppet's `merge`
// argument: {"strategy": "deep", "knockout_prefix": "--", ...}. Empty
// fields are left out.
type Merge struct {
	Strategy         MergeStrategy
	KnockoutPrefix   string
	SortMergedArrays bool
	MergeHashArrays  bool
}

// MarshalJSON writes the hash form.
func (m Merge) MarshalJSON() ([]byte, error) { return Marshal(m.wire()) }

func (m Merge) wire() *OrderedMap {
	om := NewOrderedMap().Set("strategy", string(m.Strategy))
	if m.KnockoutPrefix != "" {
		om.Set("knockout_prefix", m.KnockoutPrefix)
	}
	if m.SortMergedArrays {
		om.Set("sort_merged_arrays", true)
	}
	if m.MergeHashArrays {
		om.Set("merge_hash_arrays", true)
	}
	return om
}

// LookupOption adjusts one lookup.
type LookupOption func(*lookupConfig)

type lookupConfig struct {
	fallbacks             []string
	merge, dflt, dvh, ovr any
	hasMerge, hasDefault  bool
	hasDVH, hasOverride   bool
	explain, ordered      bool
}

// WithMerge sets the merge: a MergeStrategy (or a plain string such as
// "deep"), a Merge, or any value of the wire format, which is passed as it
// is (Hiera validates it, as Puppet does). Without it, lookup_options or
// "first" decide.
func WithMerge(merge any) LookupOption {
	return func(c *lookupConfig) { c.merge, c.hasMerge = merge, true }
}

// WithDefault gives the value to answer when nothing is found (nil too:
// WithDefault(nil) answers nil, found). As in Puppet's lookup(), it is not
// interpolated.
func WithDefault(v any) LookupOption {
	return func(c *lookupConfig) { c.dflt, c.hasDefault = v, true }
}

// WithDefaultValuesHash gives Puppet's default_values_hash: a map with
// string keys (or an *OrderedMap) consulted when the key is not found.
func WithDefaultValuesHash(h any) LookupOption {
	return func(c *lookupConfig) { c.dvh, c.hasDVH = h, true }
}

// WithOverride gives Puppet's override hash: a map with string keys (or an
// *OrderedMap) consulted before any data.
func WithOverride(h any) LookupOption {
	return func(c *lookupConfig) { c.ovr, c.hasOverride = h, true }
}

// WithFallbackKeys adds keys to try after the first, as Puppet's
// lookup([k1, k2, ...]): the first key found wins.
func WithFallbackKeys(keys ...string) LookupOption {
	return func(c *lookupConfig) { c.fallbacks = append(c.fallbacks, keys...) }
}

// WithExplain asks for the explanation (the text of `puppet lookup
// --explain`). Session.Explain sets it; in LookupMany it fills
// Result.Explain; lookup errors carry it in Error.Explain.
func WithExplain() LookupOption {
	return func(c *lookupConfig) { c.explain = true }
}

// WithOrderedMaps decodes hashes as *OrderedMap, keeping Hiera's key order,
// instead of map[string]any.
func WithOrderedMaps() LookupOption {
	return func(c *lookupConfig) { c.ordered = true }
}

func configure(opts []LookupOption) lookupConfig {
	var c lookupConfig
	for _, o := range opts {
		if o != nil {
			o(&c)
		}
	}
	return c
}

// plain reports whether the request is the key alone ({"key": K}), which
// hiera_lookup_key answers; ordered only changes how the answer is decoded.
func (c *lookupConfig) plain() bool {
	return len(c.fallbacks) == 0 && !c.hasMerge && !c.hasDefault && !c.hasDVH && !c.hasOverride && !c.explain
}

// request builds the request object of the wire format.
func (c *lookupConfig) request(key string) *OrderedMap {
	om := NewOrderedMap()
	if len(c.fallbacks) == 0 {
		om.Set("key", key)
	} else {
		om.Set("key", append([]string{key}, c.fallbacks...))
	}
	if c.hasMerge {
		om.Set("merge", c.merge)
	}
	if c.hasDefault {
		om.Set("default", c.dflt)
	}
	if c.hasDVH {
		om.Set("default_values_hash", c.dvh)
	}
	if c.hasOverride {
		om.Set("override", c.ovr)
	}
	if c.explain {
		om.Set("explain", true)
	}
	return om
}

// Request is one lookup of LookupMany: a key and its options.
type Request struct {
	Key     string
	Options []LookupOption
}

// NewRequest makes a Request.
func NewRequest(key string, opts ...LookupOption) Request {
	return Request{Key: key, Options: opts}
}

// Result is the answer to one Request of LookupMany.
type Result struct {
	Key     string          // the request's key
	Found   bool            // a value (or the default) was found
	Value   any             // the decoded value (see Unmarshal) when Found
	Raw     json.RawMessage // the value's wire JSON, as the library wrote it, when Found
	Explain string          // the explanation, when the request asked for one
	Err     error           // a *Error when this lookup failed
}

// response is one response object of the wire format.
type response map[string]json.RawMessage

// result reads a response object.
func (r response) result(key string, ordered bool) Result {
	res := Result{Key: key}
	if x, ok := r["explain"]; ok {
		if err := json.Unmarshal(x, &res.Explain); err != nil {
			res.Err = internalError("unreadable explain in %s", x)
			return res
		}
	}
	if e, ok := r["error"]; ok {
		var o errorObject
		if err := json.Unmarshal(e, &o); err != nil || o.Kind == "" {
			res.Err = internalError("unreadable error object %s", e)
			return res
		}
		err := o.toError(StatusError)
		err.Explain = res.Explain
		res.Err = err
		return res
	}
	if v, ok := r["value"]; ok {
		res.Found, res.Raw = true, v
		res.Value, res.Err = decodeResult(v, ordered)
		return res
	}
	if _, ok := r["not_found"]; !ok {
		res.Err = internalError("a response with neither value, not_found nor error")
	}
	return res
}

func decodeResult(raw []byte, ordered bool) (any, error) {
	v, err := unmarshal(raw, ordered)
	if err != nil {
		return nil, internalError("libhiera answered JSON this package cannot read (%v): %s", err, raw)
	}
	return v, nil
}
