//! `LlmActorPlugin`: LLM calls as ECS data. A stage queues a [`Call`] in
//! [`LlmCalls`]; `dispatch_calls` hands queued calls to the client's tokio
//! runtime; replies come back over a crossbeam channel and
//! `collect_replies` files them by sequence number. A caller takes its
//! reply by number, never by arrival, so the simulation stays deterministic
//! however the network orders them.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use super::client::LlmClient;
use super::client::call::{Call, Reply};
use super::client::error::LlmError;
use bevy::prelude::*;
use crossbeam_channel::{Receiver, Sender};

/// The plugin's systems, in order: dispatch queued calls, then collect
/// replies that have arrived.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum LlmSystems {
    Dispatch,
    Collect,
}

pub struct LlmActorPlugin {
    pub client: Arc<LlmClient>,
}

type Filed = (u64, Result<Reply, LlmError>);

#[derive(Resource)]
pub struct LlmLink {
    client: Arc<LlmClient>,
    tx: Sender<Filed>,
    rx: Receiver<Filed>,
    /// Signalled after each reply, so a waiting caller can sleep.
    wake: Receiver<()>,
    wake_tx: Sender<()>,
}

/// Calls waiting to be sent, and replies waiting to be taken.
#[derive(Resource, Default)]
pub struct LlmCalls {
    next: u64,
    queued: Vec<(u64, Call)>,
    in_flight: usize,
    replies: BTreeMap<u64, Result<Reply, LlmError>>,
}

impl LlmCalls {
    /// Queues `call`; its reply will be filed under the returned number.
    pub fn submit(&mut self, call: Call) -> u64 {
        self.next += 1;
        self.queued.push((self.next, call));
        self.next
    }

    pub fn take(&mut self, seq: u64) -> Option<Result<Reply, LlmError>> {
        self.replies.remove(&seq)
    }

    pub fn in_flight(&self) -> usize {
        self.in_flight
    }
}

impl Plugin for LlmActorPlugin {
    fn build(&self, app: &mut App) {
        let (tx, rx) = crossbeam_channel::unbounded();
        let (wake_tx, wake) = crossbeam_channel::unbounded();
        app.insert_resource(LlmLink {
            client: Arc::clone(&self.client),
            tx,
            rx,
            wake,
            wake_tx,
        })
        .init_resource::<LlmCalls>()
        .configure_sets(Update, (LlmSystems::Dispatch, LlmSystems::Collect).chain())
        .add_systems(Update, dispatch_calls.in_set(LlmSystems::Dispatch))
        .add_systems(Update, collect_replies.in_set(LlmSystems::Collect));
    }
}

/// System: hand queued calls to the client's runtime.
pub fn dispatch_calls(link: Res<LlmLink>, mut calls: ResMut<LlmCalls>) {
    let queued = std::mem::take(&mut calls.queued);
    calls.in_flight += queued.len();
    for (seq, call) in queued {
        let (tx, wake) = (link.tx.clone(), link.wake_tx.clone());
        link.client.spawn(call, move |r| {
            let _ = tx.send((seq, r));
            let _ = wake.send(());
        });
    }
}

/// System: file the replies that have arrived by their call's number.
pub fn collect_replies(link: Res<LlmLink>, mut calls: ResMut<LlmCalls>) {
    while let Ok((seq, r)) = link.rx.try_recv() {
        calls.in_flight -= 1;
        calls.replies.insert(seq, r);
    }
}

/// Drives an app with the plugin for a caller that needs replies one at a
/// time (a generation stage).
pub struct LlmDriver {
    app: App,
}

impl LlmDriver {
    pub fn new(client: Arc<LlmClient>) -> Self {
        let mut app = App::new();
        app.add_plugins(LlmActorPlugin { client });
        LlmDriver { app }
    }

    /// Sends `call` and waits for its reply.
    pub fn call(&mut self, call: Call) -> Result<Reply, LlmError> {
        let seq = self.app.world_mut().resource_mut::<LlmCalls>().submit(call);
        loop {
            self.app.update();
            if let Some(r) = self.app.world_mut().resource_mut::<LlmCalls>().take(seq) {
                return r;
            }
            let _ = self
                .app
                .world()
                .resource::<LlmLink>()
                .wake
                .recv_timeout(Duration::from_millis(50));
        }
    }
}
