//go:build !hiera_nopkgconfig

package hiera

// The primary way to link: pkg-config finds libhiera through the libhiera.pc
// that `make install` writes (set PKG_CONFIG_PATH for a non-standard
// PREFIX). Build with -tags hiera_nopkgconfig and set CGO_CFLAGS and
// CGO_LDFLAGS yourself to link without pkg-config (see the README).

// #cgo pkg-config: libhiera
import "C"
