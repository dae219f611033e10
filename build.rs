//! Link settings of the shared object: it exports only the C ABI (`hiera_*`
//! and `hiera3_*`, through the version script `src/ffi/exports.map`) and
//! carries a versioned SONAME, `libhiera.so.<HIERA_ABI_VERSION>`.

fn main() {
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/ffi/exports.map");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed={}", map.display());
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    // ELF platforms with a GNU-compatible linker.
    if matches!(
        os.as_str(),
        "linux" | "android" | "freebsd" | "netbsd" | "openbsd" | "dragonfly"
    ) {
        println!(
            "cargo:rustc-cdylib-link-arg=-Wl,--version-script={}",
            map.display()
        );
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libhiera.so.0");
    }
}
