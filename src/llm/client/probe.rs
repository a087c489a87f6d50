//! Asking a server once what it is: its structured-output dialect and the
//! context it serves, from what each kind of server already publishes
//! (Ollama's `/api/version` and `/api/show`, the `owned_by` and vLLM's
//! `max_model_len` at `/v1/models`, llama.cpp's `/props`). A server that
//! answers none of them is taken as OpenAI's.

use std::time::Duration;

use serde_json::{Value, json};

use super::pool::Dialect;

/// What a probe found out about one server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probed {
    pub dialect: Dialect,
    /// The most context the server takes, if it says. For Ollama this is
    /// the model's own limit: the context used is the one hearth asks for.
    pub context: Option<u32>,
}

/// Probes `base` (an OpenAI-style base URL ending in `/v1`, or not) for
/// `model`. Every request has a short timeout; a failure only means the
/// server did not say.
pub async fn probe(http: &reqwest::Client, key: Option<&str>, model: &str, base: &str) -> Probed {
    let root = base.strip_suffix("/v1").unwrap_or(base);
    let ask = |req: reqwest::RequestBuilder| async move {
        let req = req.timeout(Duration::from_secs(5));
        let req = match key {
            Some(k) => req.bearer_auth(k),
            None => req,
        };
        let resp = req.send().await.ok().filter(|r| r.status().is_success())?;
        serde_json::from_str::<Value>(&resp.text().await.ok()?).ok()
    };
    if ask(http.get(format!("{root}/api/version")))
        .await
        .is_some_and(|v| v["version"].is_string())
    {
        let show = http
            .post(format!("{root}/api/show"))
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .body(json!({ "model": model }).to_string());
        let show = ask(show).await;
        return Probed {
            dialect: Dialect::Ollama,
            context: show.as_ref().and_then(ollama_context),
        };
    }
    let models = ask(http.get(format!("{base}/models"))).await;
    let entry = models.as_ref().and_then(|m| model_entry(m, model));
    match entry.and_then(|e| e["owned_by"].as_str()) {
        Some("vllm") => Probed {
            dialect: Dialect::Vllm,
            context: entry.and_then(|e| as_u32(&e["max_model_len"])),
        },
        // llama-cpp-python's server signs its models so; it refuses
        // `json_schema` but decodes under `json_object` with a schema.
        Some("me") => Probed {
            dialect: Dialect::LlamaCpp,
            context: None,
        },
        _ => Probed {
            dialect: Dialect::Openai,
            context: ask(http.get(format!("{root}/props")))
                .await
                .as_ref()
                .and_then(llama_context),
        },
    }
}

/// The entry of `/v1/models` for `model`, else the first (servers of one
/// model answer to any name).
fn model_entry<'a>(models: &'a Value, model: &str) -> Option<&'a Value> {
    let data = models["data"].as_array()?;
    data.iter()
        .find(|e| e["id"] == model)
        .or_else(|| data.first())
}

/// The context a llama.cpp server runs with (`/props`).
pub fn llama_context(props: &Value) -> Option<u32> {
    as_u32(&props["default_generation_settings"]["n_ctx"]).or_else(|| as_u32(&props["n_ctx"]))
}

/// The model's context length in Ollama's `/api/show` (`<arch>.context_length`).
pub fn ollama_context(show: &Value) -> Option<u32> {
    show["model_info"]
        .as_object()?
        .iter()
        .find(|(k, _)| k.ends_with(".context_length"))
        .and_then(|(_, v)| as_u32(v))
}

fn as_u32(v: &Value) -> Option<u32> {
    v.as_u64()
        .filter(|n| *n > 0)
        .map(|n| n.min(u64::from(u32::MAX)) as u32)
}

/// The context to fit prompts into, and a warning if the one given had to
/// shrink. `given` is `--llm-context`; `probed` what each server said.
/// Without `given`: the smallest a server with a fixed context reports if
/// every such server reports one, else `default`; Ollama's context is the
/// one asked for, so it only caps.
pub fn resolve_context(
    given: Option<u32>,
    probed: &[(String, Probed)],
    default: u32,
) -> (u32, Option<String>) {
    let fixed: Vec<Option<u32>> = probed
        .iter()
        .filter(|(_, p)| p.dialect != Dialect::Ollama)
        .map(|(_, p)| p.context)
        .collect();
    let wanted =
        given.unwrap_or_else(
            || match fixed.iter().copied().collect::<Option<Vec<u32>>>() {
                Some(all) if !all.is_empty() => all.into_iter().min().unwrap_or(default),
                _ => default,
            },
        );
    let cap = probed
        .iter()
        .filter_map(|(url, p)| p.context.map(|c| (c, url)))
        .min();
    match cap {
        Some((c, url)) if c < wanted => (
            c,
            given.map(|g| {
                format!("--llm-context {g} is more than {url} serves ({c} tokens); using {c}")
            }),
        ),
        _ => (wanted, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(dialect: Dialect, context: Option<u32>) -> (String, Probed) {
        (format!("http://{dialect}/v1"), Probed { dialect, context })
    }

    #[test]
    fn contexts_come_from_the_servers_that_fix_them_and_are_capped_by_all() {
        let d = 4096;
        // Nothing reported: the default, or what was given.
        assert_eq!(
            resolve_context(None, &[p(Dialect::LlamaCpp, None)], d),
            (d, None)
        );
        assert_eq!(
            resolve_context(Some(8192), &[p(Dialect::LlamaCpp, None)], d),
            (8192, None)
        );
        // A llama.cpp server's n_ctx is used as it is, the smallest of several.
        let two = [
            p(Dialect::Openai, Some(16384)),
            p(Dialect::Vllm, Some(8192)),
        ];
        assert_eq!(resolve_context(None, &two, d), (8192, None));
        // One server that does not say: not safe to go past the default.
        let some = [p(Dialect::Openai, Some(16384)), p(Dialect::LlamaCpp, None)];
        assert_eq!(resolve_context(None, &some, d), (d, None));
        // Ollama's model limit only caps what is asked for.
        assert_eq!(
            resolve_context(None, &[p(Dialect::Ollama, Some(131072))], d),
            (d, None)
        );
        assert_eq!(
            resolve_context(None, &[p(Dialect::Ollama, Some(2048))], d),
            (2048, None)
        );
        // More than a server serves is cut down, and said.
        let (n, warn) = resolve_context(Some(32768), &[p(Dialect::Vllm, Some(8192))], d);
        assert_eq!(n, 8192);
        assert!(
            warn.unwrap()
                .contains("--llm-context 32768 is more than http://vllm/v1 serves")
        );
    }

    #[test]
    fn server_reports_are_read_where_each_server_puts_them() {
        let props = json!({"default_generation_settings": {"n_ctx": 8192}, "total_slots": 1});
        assert_eq!(llama_context(&props), Some(8192));
        assert_eq!(llama_context(&json!({"n_ctx": 4096})), Some(4096));
        assert_eq!(llama_context(&json!({"total_slots": 1})), None);
        let show = json!({"model_info": {"general.architecture": "llama", "llama.context_length": 131072}});
        assert_eq!(ollama_context(&show), Some(131072));
        assert_eq!(
            ollama_context(&json!({"model_info": {"llama.context_length": 0}})),
            None
        );
        let models =
            json!({"data": [{"id": "a", "owned_by": "vllm"}, {"id": "b", "owned_by": "x"}]});
        assert_eq!(model_entry(&models, "b").unwrap()["owned_by"], "x");
        assert_eq!(model_entry(&models, "zzz").unwrap()["id"], "a");
        assert!(model_entry(&json!({"data": []}), "a").is_none());
    }
}
