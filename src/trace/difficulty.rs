//! The difficulty axes a trace was generated with, recorded in its manifest.

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// The difficulty axes of a trace (`--robot-away`, `--lookalikes`,
/// `--moves`): how much of the day the robot is docked away, how many extra
/// look-alikes of each object category the house holds, and a factor on how
/// many things people move when they tidy. The default is the ordinary
/// trace, byte for byte, and is left out of the manifest.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Difficulty {
    /// Share of the waking day (07:00 to 22:00) the robot spends docked in
    /// standby, perceiving nothing; 0 to [`Difficulty::MAX_AWAY`].
    pub robot_away: f64,
    /// Extra objects per category the house has, each a catalogue variant
    /// it lacks; 0 to [`Difficulty::MAX_LOOKALIKES`].
    pub lookalikes: u32,
    /// Factor on the things moved per tidying round; 0 to [`Difficulty::MAX_MOVES`].
    pub moves: f64,
}

impl Default for Difficulty {
    fn default() -> Self {
        Difficulty {
            robot_away: 0.0,
            lookalikes: 0,
            moves: 1.0,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Error)]
pub enum DifficultyError {
    #[error("robot-away must be a share between 0 and {max}, not {0}", max = Difficulty::MAX_AWAY)]
    Away(f64),
    #[error("lookalikes must be between 0 and {max} per category, not {0}", max = Difficulty::MAX_LOOKALIKES)]
    Lookalikes(u32),
    #[error("moves must be a factor between 0 and {max}, not {0}", max = Difficulty::MAX_MOVES)]
    Moves(f64),
}

impl Difficulty {
    pub const MAX_AWAY: f64 = 0.9;
    pub const MAX_LOOKALIKES: u32 = 5;
    pub const MAX_MOVES: f64 = 5.0;

    /// The axes, checked against their ranges.
    pub fn new(robot_away: f64, lookalikes: u32, moves: f64) -> Result<Self, DifficultyError> {
        if !(0.0..=Self::MAX_AWAY).contains(&robot_away) {
            return Err(DifficultyError::Away(robot_away));
        }
        if lookalikes > Self::MAX_LOOKALIKES {
            return Err(DifficultyError::Lookalikes(lookalikes));
        }
        if !(0.0..=Self::MAX_MOVES).contains(&moves) {
            return Err(DifficultyError::Moves(moves));
        }
        Ok(Difficulty {
            robot_away,
            lookalikes,
            moves,
        })
    }

    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}
