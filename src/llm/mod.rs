//! LLM backends for generation (`openai`, `replay`): an OpenAI-compatible
//! client with record/replay, the Bevy plugin that carries calls between
//! the ECS and the client's runtime, and the backend whose every stage is a
//! prompt from `prompts/`. Outside the core: this is where network I/O
//! lives.

pub mod client;
pub mod repair;
pub mod reply;
pub mod schema;

pub use client::{
    Call, Cost, Fallback, LlmClient, LlmConfig, LlmError, Message, OnBudget, Reply, SchemaMode,
    Stats,
};
pub mod backend;
pub mod plugin;

pub use backend::LlmBackend;
pub use plugin::{LlmActorPlugin, LlmDriver, LlmSystems};
pub mod mock;
