//! The scenes that ship inside the binary.

use super::model::Scene;
use super::parse::parse;

/// The scenes that ship inside the binary, by id. The first is the default.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "family_apartment",
        include_str!("../../scenes/family_apartment.ron"),
    ),
    ("studio", include_str!("../../scenes/studio.ron")),
    ("large_house", include_str!("../../scenes/large_house.ron")),
];

/// The embedded default scene's RON text.
pub fn default_source() -> &'static str {
    BUILTIN[0].1
}

/// The embedded default scene, parsed and validated.
pub fn default_scene() -> Scene {
    parse("<embedded default>", default_source()).expect("the embedded default scene is valid")
}
