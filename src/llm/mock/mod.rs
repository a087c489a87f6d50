//! A small OpenAI-compatible server on 127.0.0.1 with scripted replies and
//! fault injection (status codes, `Retry-After`, delays, broken bodies, and
//! the [`Fault`]s small models and real servers show), for the test suite
//! and `hearth bench`. Plain HTTP/1.1, a thread per connection, optionally
//! a bound on requests served at once (a server's slots).

mod decode;
mod faults;
mod household;
mod messages;
mod server;

pub use decode::decode;
pub use faults::{Fault, unusable, with_fault};
pub use household::{constrained, grammar, household, stepwise};
pub use messages::{MockReply, MockRequest};
pub use server::MockServer;
