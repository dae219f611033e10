//! `hiera-corpus --seed N --scale S [--shape SHAPE] --out DIR`: writes the
//! benchmark corpus of issue 7, or one of another shape (issue 18, see
//! `benches/corpus/shape.rs`), and prints a summary.

#[path = "gen.rs"]
mod gen;

use std::path::PathBuf;
use std::process::ExitCode;

const USAGE: &str =
    "usage: hiera-corpus [--seed N] [--scale S] [--shape PRESET[,NAME=VALUE...]] --out DIR\n\
       hiera-corpus --shapes   (lists the presets)";

fn main() -> ExitCode {
    let mut seed: u64 = 1;
    let mut scale: f64 = 1.0;
    let mut out: Option<PathBuf> = None;
    let mut shape = gen::Shape::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let (flag, inline) = match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (a.clone(), None),
        };
        let mut value = || inline.clone().or_else(|| args.next());
        let ok = match flag.as_str() {
            "--seed" => value()
                .and_then(|v| v.parse().ok())
                .map(|v| seed = v)
                .is_some(),
            "--scale" => value()
                .and_then(|v| v.parse().ok())
                .filter(|v: &f64| *v > 0.0 && *v <= 64.0)
                .map(|v| scale = v)
                .is_some(),
            "--out" => value().map(|v| out = Some(PathBuf::from(v))).is_some(),
            "--shape" => match value().map(|v| gen::Shape::parse(&v)) {
                Some(Ok(s)) => {
                    shape = s;
                    true
                }
                Some(Err(e)) => {
                    eprintln!("hiera-corpus: --shape: {e}");
                    return ExitCode::from(2);
                }
                None => false,
            },
            "--shapes" => {
                for (name, what) in gen::PRESETS {
                    println!("{name:<8} {what}");
                }
                return ExitCode::SUCCESS;
            }
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            _ => false,
        };
        if !ok {
            eprintln!("hiera-corpus: bad argument '{a}'\n{USAGE}");
            return ExitCode::from(2);
        }
    }
    let Some(out) = out else {
        eprintln!("hiera-corpus: --out is required\n{USAGE}");
        return ExitCode::from(2);
    };
    let corpus = gen::Corpus::generate_shaped(seed, scale, &shape);
    if let Err(e) = corpus.write(&out) {
        eprintln!("hiera-corpus: writing {}: {e}", out.display());
        return ExitCode::from(1);
    }
    println!("{}", corpus.summary());
    println!("written to {}", out.display());
    ExitCode::SUCCESS
}
