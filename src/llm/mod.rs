//! LLM backends for generation (`openai`, `replay`): an OpenAI-compatible
//! client with record/replay, the Bevy plugin that carries calls between
//! the ECS and the client's runtime, and the backend whose every stage is a
//! prompt from `prompts/`. Outside the core: this is where network I/O
//! lives.

pub mod backend;
pub mod client;
pub mod mock;
pub mod oneshot;
pub mod plugin;
pub mod prompts;
pub mod repair;
pub mod reply;
pub mod schema;

pub use backend::LlmBackend;
pub use client::LlmClient;
pub use client::Stats;
pub use client::call::{Call, Message, Reply};
pub use client::config::{Fallback, LlmConfig, OnBudget};
pub use client::error::LlmError;
pub use client::pool::Dialect;
pub use plugin::{LlmActorPlugin, LlmDriver, LlmSystems};
