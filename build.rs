//! Link settings of the shared object: it exports only the C ABI (`hiera_*`
//! and `hiera3_*`, through the version script `src/ffi/exports.map`) and
//! carries a versioned SONAME, `libhiera.so.<HIERA_ABI_VERSION>`.

fn main() {
    // Read at run time: a build script compiled for one checkout may be run
    // for another that shares its target directory (a git worktree).
    let dir = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let map = std::path::Path::new(&dir).join("src/ffi/exports.map");
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
