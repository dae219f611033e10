//! The `yaml` target: the YAML loader as data files use it (and as Hiera 3
//! and the C ABI's `hiera_parse_data` do), on generated and mutated YAML.

use crate::input::Input;
use crate::mutator::mutate;
use crate::rng::Rng;
use crate::targets::Verdict;
use crate::yamlgen::Gen;
use crate::{corpus, hostile, request};
use hiera::yaml::YamlOptions;
use std::path::Path;

/// Generates a YAML document.
pub fn generate(rng: &mut Rng) -> Input {
    if rng.one_in(200) {
        let (text, note) = hostile::yaml_document(rng);
        return Input::single("data.yaml", text.into_bytes(), note);
    }
    let (bytes, note) = match rng.below(5) {
        0 | 1 => {
            let mut b = corpus::pick_file(rng, "yaml");
            let donor = corpus::pick_file(rng, "yaml");
            mutate(rng, &mut b, &donor);
            (b, "mutated conformance YAML file")
        }
        2 => {
            let mut b = Gen::new(rng).document().into_bytes();
            let donor = corpus::pick_file(rng, "yaml");
            mutate(rng, &mut b, &donor);
            (b, "generated YAML, mutated")
        }
        _ => (Gen::new(rng).document().into_bytes(), "generated YAML"),
    };
    Input::single("data.yaml", bytes, note)
}

/// Loads the document every way the library does.
pub fn run(input: &Input) -> Verdict {
    let bytes = input.file("data.yaml").unwrap_or_default();
    let path = Path::new("/soak/data.yaml");
    if let Ok(text) = hiera::data::yaml_utf8(bytes) {
        if let Ok(map) = hiera::data::parse_yaml_data(text, path) {
            let v = hiera::Value::Hash(map);
            let _ = hiera::render::to_json(&v);
            let _ = hiera::yaml::to_yaml(&v);
            let _ = hiera::ruby::inspect(&v);
        }
        let _ = hiera::yaml::load(
            text,
            &YamlOptions {
                aliases: false,
                ..YamlOptions::default()
            },
        );
    }
    let _ = hiera::hiera3::backend::load_yaml(bytes);
    request::parse_data("yaml", bytes)
}
