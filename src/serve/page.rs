//! The page: one HTML file, one stylesheet and its JavaScript modules,
//! embedded in the binary so that `cargo install` is all a user needs.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::model::NAMED_RULES;

/// Scripts and styles from this server only, no inline script, no frames:
/// the page needs nothing else.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

/// `(path, body)` of each module named, read from `page/` into the binary.
macro_rules! scripts {
    ($($name:literal),* $(,)?) => {
        &[$((concat!("/", $name), include_str!(concat!("page/", $name)))),*]
    };
}

/// The page's JavaScript modules, each served at its path: `app.js` (the
/// one the page loads) wires the page and imports the others, `state.js`
/// at the bottom (it imports `rules.js`, made by [`rules_module`], not a
/// file). A module added to `page/` is a line here.
pub(super) const SCRIPTS: &[(&str, &str)] = scripts![
    "app.js",
    "state.js",
    "url.js",
    "puzzle.js",
    "draw.js",
    "client.js",
    "play.js",
    "solution.js",
    "chase.js",
    "quiet.js",
    "heat.js",
    "settings.js",
    "graph.js",
];

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

pub(super) async fn index() -> Response {
    asset("text/html; charset=utf-8", include_str!("page/index.html"))
}

pub(super) async fn stylesheet() -> Response {
    asset("text/css; charset=utf-8", include_str!("page/app.css"))
}

/// One of [`SCRIPTS`], with the same headers as the page.
pub(super) fn script(body: &'static str) -> Response {
    asset("text/javascript; charset=utf-8", body)
}

/// `rules.js`: the model's named rules ([`NAMED_RULES`]) with their
/// words and offsets, as the page's rule menu, its links and its presses
/// read them. Made from the list, not written by hand, so that a rule
/// added to the model is on the page with no script edited.
pub(super) fn rules_module() -> &'static str {
    static MODULE: LazyLock<String> = LazyLock::new(|| {
        let rules: Vec<_> = NAMED_RULES
            .iter()
            .map(|named| {
                let offsets: Vec<[isize; 2]> = named.rule().offsets().iter().map(|&(r, c)| [r, c]).collect();
                json!({
                    "name": named.name,
                    "words": named.words,
                    "graph_words": named.graph_words,
                    "offsets": offsets,
                })
            })
            .collect();
        format!(
            "// The press rules with a name, from the model's list (NAMED_RULES):\n\
             // made by the server, not written by hand.\n\
             export const RULES = {};\n",
            serde_json::Value::from(rules)
        )
    });
    &MODULE
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `rules.js` holds the model's list, in its order, with its offsets.
    #[test]
    fn the_rules_module_is_the_models_list() {
        let module = rules_module();
        let array = module.split("export const RULES = ").nth(1).unwrap().trim_end().trim_end_matches(';');
        let rules: serde_json::Value = serde_json::from_str(array).unwrap();
        let rules = rules.as_array().unwrap();
        assert_eq!(rules.len(), NAMED_RULES.len());
        for (shown, named) in rules.iter().zip(NAMED_RULES) {
            assert_eq!(shown["name"], named.name);
            assert_eq!(shown["words"], named.words);
            assert_eq!(shown["graph_words"].as_str(), named.graph_words);
            let offsets: Vec<(isize, isize)> = serde_json::from_value(shown["offsets"].clone()).unwrap();
            assert_eq!(offsets, named.rule().offsets(), "{}", named.name);
        }
    }
}
