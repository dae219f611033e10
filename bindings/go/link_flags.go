//go:build hiera_nopkgconfig

package hiera

// Built with -tags hiera_nopkgconfig: no #cgo directive names the library.
// Point cgo at it through the environment, e.g. for a `make install
// PREFIX=$P` (or the include/ and target/release of a checkout):
//
//	CGO_CFLAGS="-I$P/include" \
//	CGO_LDFLAGS="-L$P/lib -lhiera -Wl,-rpath,$P/lib" go build
//
// or statically:
//
//	CGO_LDFLAGS="$P/lib/libhiera.a -lgcc_s -lutil -lrt -lpthread -lm -ldl"

import "C"
