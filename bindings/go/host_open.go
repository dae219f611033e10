package hiera

/*
#include <stdint.h>
#include <stdlib.h>
#include <hiera.h>

// The callbacks of functions.go (cgo exports), behind shims of the exact
// types hiera_host names.
extern void libhieraGoCall(void *, char *, struct hiera_answer *);
extern void libhieraGoWarn(void *, char *);
extern void libhieraGoRelease(void *);

static void libhiera_go_call(void *u, const char *c, hiera_answer *a) { libhieraGoCall(u, (char *)c, a); }
static void libhiera_go_warn(void *u, const char *w) { libhieraGoWarn(u, (char *)w); }
static void libhiera_go_release(void *u) { libhieraGoRelease(u); }

// hiera_open_with_host with the Go host behind the cgo.Handle `handle`
// (warnings only when `warn`).
static hiera_status libhiera_go_open(const char *opts, uintptr_t handle, int warn, hiera **out, char **err) {
  hiera_host host = {(void *)handle, libhiera_go_call, warn ? libhiera_go_warn : NULL, libhiera_go_release};
  return hiera_open_with_host(opts, &host, out, err);
}
*/
import "C"

import (
	"runtime/cgo"
	"sync/atomic"
)

// liveHosts counts the Go hosts libhiera holds (tests check that libhiera
// releases them when the Hiera and its sessions are gone).
var liveHosts atomic.Int64

// openWithHost is hiera_open with the host the OpenOptions make.
func openWithHost(cs *C.char, more []OpenOption) (Status, *C.struct_hiera, string) {
	h := &hostState{functions: map[functionKey]Function{}, caches: map[cacheKey]*functionCache{}}
	for _, o := range more {
		if o != nil {
			o(h)
		}
	}
	handle := cgo.NewHandle(h)
	liveHosts.Add(1)
	warn := C.int(0)
	if h.warn != nil {
		warn = 1
	}
	var out *C.struct_hiera
	var errJSON *C.char
	// libhiera calls release (deleting the handle) when the configuration
	// is freed, or before this returns when it cannot be made.
	st := Status(C.libhiera_go_open(cs, C.uintptr_t(handle), warn, &out, &errJSON))
	return st, out, takeString(errJSON)
}
